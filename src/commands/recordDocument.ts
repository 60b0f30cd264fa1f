// Read-only record details (a customer, a certificate, the company) as virtual JSON documents
// (scheme nilvera-record), as the registry detail does.
import * as vscode from 'vscode';
import { showAs, VirtualDocuments } from './virtualDocuments';

export const RECORD_SCHEME = 'nilvera-record';

/** The records shown this session; registered once, from the views' registration. */
export const recordDocuments = new VirtualDocuments<string>(RECORD_SCHEME, (text) => text, () => vscode.l10n.t('This record is no longer available. Open it again from its view.'));

/** Opens a record read-only in a preview tab named `name` (a record shown again under that name replaces the old text). */
export function showRecord(record: unknown, name: string): Promise<vscode.TextEditor> {
  // One path segment: a name with slashes (a company title) must not become folders.
  const uri = recordDocuments.put(`${name.replace(/[\\/]/g, '-')}.json`, JSON.stringify(record, null, 2) + '\n');
  return showAs(uri, 'json', { preview: true });
}
