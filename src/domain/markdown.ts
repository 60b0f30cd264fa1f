// Markdown built from text that is data (a server's answer, a file, a record): the one escape the
// extension uses, so such text is never markup (no link, image, HTML, heading, table cell or theme
// icon of its own). Pure, no imports: the shell's status bar loads it at activation.

/** CommonMark's ASCII punctuation: every one of them may be backslash-escaped, and any may start markup. */
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/g;

/**
 * Backslash-escapes every ASCII punctuation mark, so links, images, autolinks (`https\:\/\/…`,
 * `www\.`), HTML, entities, emphasis, headings, lists, quotes, table pipes and `$(icon)` stay text.
 * Line breaks are kept (a paragraph stays a paragraph); use `markdownCell` inside a table.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(ASCII_PUNCTUATION, '\\$&');
}

/** The text on one line: a line break (CR, LF, CRLF, U+2028, U+2029) becomes a space. */
export function oneLine(text: string): string {
  return text.replace(/\r\n|[\r\n\u2028\u2029]/g, ' ');
}

/** `escapeMarkdown` for a table cell: on one line, so the text cannot end the row. */
export function markdownCell(text: string): string {
  return escapeMarkdown(oneLine(text));
}

/**
 * A table cell of Markdown the user reads as source (a virtual document in the editor, a report to
 * copy): on one line and its pipes escaped, so it stays in its cell and row, the rest left as written
 * so it reads plainly. Text for Markdown that VS Code renders takes `markdownCell`.
 */
export function sourceCell(text: string): string {
  return oneLine(text).replace(/\|/g, '\\|');
}

/**
 * Text as an inline code span, which Markdown shows literally: fenced with more backticks than the
 * longest run inside, padded when the text starts or ends with a backtick, on one line, and with its
 * pipes escaped so that it also stays inside a table cell (GFM reads `\|` in a table's code span as
 * `|`). Empty text gives ''.
 */
export function inlineCode(text: string): string {
  const line = oneLine(text);
  if (line === '') return '';
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') || (line.startsWith(' ') && line.endsWith(' ') && line.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${line.replace(/\|/g, '\\|')}${pad}${fence}`;
}
