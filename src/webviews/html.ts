// What every webview panel shares on the host: its options (scripts, no command links, only the built
// webview assets), its icon, and a fresh nonce per render (the page and its policy: ./page.ts).
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { pagePolicy, webviewPage } from './page';

export function newNonce(): string {
  return randomBytes(18).toString('base64');
}

/** Sets a panel's options and icon; `bundle`'s script (forms, preview) is what its page loads. */
export function prepareWebview(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, bundle: string): vscode.Uri {
  // The webview may load files from the built webview assets only.
  const assets = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  panel.webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [assets] };
  panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'nilvera.svg');
  return panel.webview.asWebviewUri(vscode.Uri.joinPath(assets, bundle, 'main.js'));
}

export function formHtml(webview: vscode.Webview, script: vscode.Uri, title: string): string {
  const nonce = newNonce();
  const policy = pagePolicy(webview.cspSource, [nonce], `'nonce-${nonce}'`);
  return webviewPage({ title, language: vscode.env.language, policy, scriptUri: script.toString(), scriptNonce: nonce, body: '<main id="app" aria-busy="true"></main>' });
}
