// The preview page for a webview: fresh nonces per render, the script from the built webview assets
// (the page and its policies: ./page.ts).
import * as vscode from 'vscode';
import { newNonce, webviewAssetsRoot } from '../webviews/html';
import { previewPage } from './page';
import type { PanelKind } from './protocol';

export function previewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, kind: PanelKind, title: string): string {
  const script = webview.asWebviewUri(vscode.Uri.joinPath(webviewAssetsRoot(extensionUri), 'preview', 'main.js'));
  return previewPage({ kind, title, language: vscode.env.language, cspSource: webview.cspSource, scriptUri: script.toString(), pageNonce: newNonce(), designNonce: newNonce() });
}
