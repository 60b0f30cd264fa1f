// Which documents the editor features serve. Kept apart from the providers because activate() registers
// the hover shell and watches for these documents before the editor feature itself is loaded.
import type * as vscode from 'vscode';

/** The `source` of every Nilvera diagnostic (the walkthrough and the code actions look for it). */
export const DIAGNOSTIC_SOURCE = 'Nilvera';

// JSON and plain text get hovers but do not activate the extension (package.json has no onLanguage for
// them, only xml, csv and tsv): VS Code 1.139 opens its chat input as a plaintext document, and json and
// jsonc models of its own, in a fresh window at start-up (seen in code-server's extension-host log), so
// those events would wake the extension, and its status-bar credit refresh, in every window.
const HOVER_LANGUAGES = ['xml', 'csv', 'tsv', 'json', 'jsonc', 'plaintext'];
// VS Code has no built-in CSV language (package.json contributes the csv and tsv ids so that opening
// one activates the extension); match the files by name too, whatever language another extension gave them.
const FILE_PATTERNS = ['**/*.csv', '**/*.tsv'];
const SCHEMES = ['file', 'untitled'];

/** Where tax-number hovers are offered. */
export const TAX_NUMBER_DOCUMENTS: vscode.DocumentFilter[] = SCHEMES.flatMap((scheme) => [
  ...HOVER_LANGUAGES.map((language) => ({ scheme, language })),
  ...FILE_PATTERNS.map((pattern) => ({ scheme, pattern })),
]);

/** Invoices and customer lists: where tax-number diagnostics are computed. */
export const DIAGNOSED_DOCUMENTS: vscode.DocumentFilter[] = [
  { language: 'xml' },
  { pattern: '**/*.xml' },
  { language: 'csv' },
  { pattern: '**/*.{csv,tsv}' },
];
