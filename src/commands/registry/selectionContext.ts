// Context key `nilvera.selectionHasTaxNumber`: the editor's selection holds a 10- or 11-digit number
// in a document "Bulk Check Tax Numbers" applies to (XML, CSV, TSV, or a file whose name says tax
// numbers). The editor context menu offers the bulk check only then, not on every selection.
import type * as vscode from 'vscode';
import { registerEditorContextKey } from '../../shell/editorContextKey';

export const SELECTION_CONTEXT_KEY = 'nilvera.selectionHasTaxNumber';

const LANGUAGES = new Set(['xml', 'csv', 'tsv']);
/** The same file-name rule as the Explorer menu's when-clause in package.json. */
const TAX_FILE_NAME = /(^|[^a-z])(vkn|tckn|vergi|tax)/i;
const NUMBER = /(?<!\d)(?:\d{10}|\d{11})(?!\d)/;
/** A selection beyond this is not scanned (a whole large file): the menu is offered. */
const SCAN_LIMIT = 1_000_000;

export function appliesTo(doc: vscode.TextDocument): boolean {
  return LANGUAGES.has(doc.languageId) || /\.(csv|tsv|xml)$/i.test(doc.fileName) || TAX_FILE_NAME.test(doc.uri.path.split('/').pop() ?? '');
}

export function selectionHasTaxNumber(editor: vscode.TextEditor | undefined): boolean {
  if (!editor || !appliesTo(editor.document)) return false;
  return editor.selections.some((selection) => {
    if (selection.isEmpty) return false;
    return editor.document.offsetAt(selection.end) - editor.document.offsetAt(selection.start) > SCAN_LIMIT || NUMBER.test(editor.document.getText(selection));
  });
}

export function registerSelectionContext(): vscode.Disposable {
  return registerEditorContextKey(SELECTION_CONTEXT_KEY, selectionHasTaxNumber, { onSelection: true });
}
