// The HTML of every webview page and its policy, pure (no vscode), so the unit tests check what ships:
// one script under a strict policy with a fresh nonce per render. Nothing reaches the network
// (default-src and connect-src 'none'): the host talks to the server.

export const escapeHtml = (s: string): string => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

/** `scriptNonces`: the page script's first; `styles`: style-src besides the extension's assets. */
export function pagePolicy(cspSource: string, scriptNonces: readonly string[], styles: string): string {
  return [
    "default-src 'none'",
    `script-src ${scriptNonces.map((n) => `'nonce-${n}'`).join(' ')}`,
    `style-src ${cspSource} ${styles}`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    "connect-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

export interface PageParts {
  title: string;
  language: string;
  policy: string;
  scriptUri: string;
  scriptNonce: string;
  /** Attributes of <body>, escaped by the caller. */
  bodyAttributes?: string;
  /** The page's static markup. */
  body: string;
}

export function webviewPage(p: PageParts): string {
  return `<!DOCTYPE html>
<html lang="${escapeHtml(p.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${p.policy}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(p.title)}</title>
</head>
<body${p.bodyAttributes ?? ''}>
${p.body}
<script nonce="${p.scriptNonce}" src="${escapeHtml(p.scriptUri)}"></script>
</body>
</html>`;
}
