// Markdown rendered as VS Code renders it, for tests of text that must stay text: markdown-it (the
// engine of VS Code's Markdown preview; here from the dev dependencies, where @vscode/vsce brings it)
// with HTML and linkify on, as the preview has them, or off for hovers and tooltips, whose renderer
// (marked) makes no links of bare text.

// eslint-disable-next-line @typescript-eslint/no-require-imports
const MarkdownIt = require('markdown-it') as new (options: { html: boolean; linkify: boolean }) => { render(source: string): string };

const preview = new MarkdownIt({ html: true, linkify: true });
const tooltip = new MarkdownIt({ html: true, linkify: false });

/** HTML of the Markdown preview (a document such as Check Connection's report). */
export function renderPreview(markdown: string): string {
  return preview.render(markdown);
}

/** HTML of a hover or tooltip's MarkdownString. */
export function renderTooltip(markdown: string): string {
  return tooltip.render(markdown);
}

/** Elements that make text live: a link, an image, any raw HTML element that is not the renderer's own. */
export function liveMarkup(html: string): string[] {
  const own = new Set(['p', 'code', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'strong', 'em', 'ul', 'ol', 'li', 'blockquote', 'h1', 'h2', 'h3', 'br', 'hr', 'pre']);
  const found: string[] = [];
  for (const m of html.matchAll(/<([a-zA-Z][\w-]*)/g)) if (!own.has(m[1].toLowerCase())) found.push(m[0]);
  return found;
}

/** The text of rendered HTML: tags removed, the renderer's entities decoded. */
export function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}
