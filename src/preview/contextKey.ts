// Context key `nilvera.ublDocument`: the active editor shows a UBL-TR document (recognised by its opening
// text), so the editor title and context menus offer "Preview Document" on invoices and despatch
// advices, not on every XML file. Registered at activation; it reads only the first few KB on an editor switch.
import * as vscode from 'vscode';
import { ContextKeys } from '../constants';
import { registerEditorContextKey } from '../shell/editorContextKey';
import { documentTypeOfHead } from '../domain/ubl/documentTypes';

const SNIFF_CHARS = 4096;

/** Whether a document is a UBL-TR document, by its opening text. */
export function isUblDocument(doc: vscode.TextDocument): boolean {
  return documentTypeOfHead(doc.getText(new vscode.Range(new vscode.Position(0, 0), doc.positionAt(SNIFF_CHARS)))) !== undefined;
}

function showsUblDocument(editor: vscode.TextEditor | undefined): boolean {
  const doc = editor?.document;
  return !!doc && (doc.languageId === 'xml' || /\.xml$/i.test(doc.uri.path)) && isUblDocument(doc);
}

export function registerUblDocumentContext(): vscode.Disposable {
  return registerEditorContextKey(ContextKeys.ublDocument, showsUblDocument);
}
