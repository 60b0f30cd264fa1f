// The template studio comes back after a window reload with the built-in sample it showed, named in the
// page's saved state (restore.sample), which the host joins to the extension's samples folder. That
// state is only data: a name that climbs out of the folder (`../../x.xml`) or points elsewhere is
// refused, even when it ends in `.xml` like a real sample; every real sample's name passes.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { restoreStateOf } from '../../../src/preview/protocol';

const samples = path.resolve(__dirname, '..', '..', '..', '..', 'media', 'samples');
const studio = (sample: unknown) => restoreStateOf({ restore: { panel: 'studio', design: 'file:///d.xslt', sample } }, 'studio');

test('a restored sample name that leaves the samples folder is refused, though it ends in .xml', () => {
  for (const name of [
    '../../x.xml',
    '../x.xml',
    '../samples/invoice-TICARIFATURA.xml',
    './../../x.xml',
    'sub/../../x.xml',
    'sub/invoice-TICARIFATURA.xml',
    '/etc/x.xml',
    '..\\..\\x.xml',
    'C:\\Users\\u\\x.xml',
    'C:x.xml',
    'file:///etc/x.xml',
    '%2e%2e%2fx.xml',
    '../../x.xml\u0000',
    ' ../x.xml',
  ]) {
    assert.equal(studio(name), undefined, JSON.stringify(name));
  }
});

test('every built-in sample name is restored as written, and stays inside the samples folder', () => {
  const names = fs.readdirSync(samples).filter((f) => f.endsWith('.xml'));
  assert.ok(names.length >= 8, `${names.length} samples`);
  for (const name of names) {
    const restored = studio(name);
    assert.deepEqual(restored, { panel: 'studio', design: 'file:///d.xslt', sample: name }, name);
    const joined = path.resolve(samples, restored?.sample ?? "");
    assert.equal(path.dirname(joined), samples, name);
  }
});
