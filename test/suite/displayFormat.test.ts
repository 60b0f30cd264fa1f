// The one format of a file size (src/shell/displayFormat.ts), in the display language: the registry
// download's messages and the documents view's rows say sizes the same way.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { formatBytes } from '../../src/shell/displayFormat';
import { DocumentNode } from '../../src/views/records/recordNodes';

suite('Display format: file sizes', () => {
  test('B, kB and MB in decimal units, with the display language\'s decimal mark', () => {
    assert.equal(vscode.env.language, 'en');
    assert.deepEqual([0, 512, 1_500, 68_300, 999_999, 68_300_000].map(formatBytes), ['0 B', '512 B', '1.5 kB', '68.3 kB', '1.0 MB', '68.3 MB']);
  });

  test('a document row shows its size in that format', () => {
    const node = new DocumentNode(undefined as never, { ID: 1, Name: 'Vergi Levhası', FileType: 'pdf', Size: 1_500, CreatedDate: '2026-01-02T00:00:00' } as never);
    assert.equal(node.treeItem().description, 'pdf · 1.5 kB · 2026-01-02');
  });
});
