// The one format of a file size and of a date (src/shell/displayFormat.ts), in the display language:
// the registry download's messages, the tree rows and the detail documents say them the same way. Run
// in English and, with `npm run test:suite -- --locale tr`, in Turkish (NILVERA_SUITE_LOCALE says which).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { formatBytes, formatDate } from '../../src/shell/displayFormat';
import { DocumentNode } from '../../src/views/records/recordNodes';
import { renderDetail } from '../../src/commands/registry/detailDocument';

const turkish = process.env.NILVERA_SUITE_LOCALE === 'tr';

suite('Display format: file sizes and dates', () => {
  test('the display language is the one the suite was started in', () => {
    assert.equal(vscode.env.language, turkish ? 'tr' : 'en');
  });

  test('B, KB and MB in binary units as Windows Explorer writes them, with the display language\'s decimal mark', () => {
    const expected = turkish ? ['0 B', '512 B', '1,5 KB', '68,3 KB', '1 MB', '68,3 MB'] : ['0 B', '512 B', '1.5 KB', '68.3 KB', '1 MB', '68.3 MB'];
    assert.deepEqual([0, 512, 1_536, 69_939, 1_048_576, 71_618_150].map(formatBytes), expected);
  });

  test('a date in the display language, the calendar day the server wrote whatever its offset', () => {
    const day = turkish ? '2 Oca 2026' : 'Jan 2, 2026';
    assert.deepEqual(['2026-01-02', '2026-01-02T00:00:00', '2026-01-02T00:00:00.000+03:00', '2026-01-02T23:30:00Z'].map(formatDate), [day, day, day, day]);
    assert.deepEqual([null, undefined, 'yarın'].map(formatDate), ['', '', 'yarın']);
  });

  test('a document row shows its size and date in those formats', () => {
    const node = new DocumentNode(undefined as never, { ID: 1, Name: 'Vergi Levhası', FileType: 'pdf', Size: 1_536, CreatedDate: '2026-01-02T00:00:00.000+03:00' } as never);
    assert.equal(node.treeItem().description, turkish ? 'pdf · 1,5 KB · 2 Oca 2026' : 'pdf · 1.5 KB · Jan 2, 2026');
  });

  test('a taxpayer\'s detail document shows its dates in the display language', () => {
    const md = renderDetail({ taxNumber: '1234567803', title: 'Örnek A.Ş.', firstCreation: '2019-03-04T00:00:00', aliases: [{ name: 'urn:mail:defaultpk@ornek.com.tr', kind: 'PK', created: '2020-05-06T10:00:00.000+03:00' }], fields: {}, source: 'online' } as never);
    assert.ok(md.includes(turkish ? '4 Mar 2019' : 'Mar 4, 2019'), md);
    assert.ok(md.includes(turkish ? '6 May 2020' : 'May 6, 2020'), md);
    assert.ok(!/\d{4}-\d\d-\d\d/.test(md), md);
  });
});
