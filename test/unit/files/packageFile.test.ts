// Where a shipped file is found (src/files/packageFile.ts): beside the running bundle first, else in
// the nearest folder above it (tests run from out/, the package's dist/ and node_modules are higher).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { findPackageFile } from '../../../src/files/packageFile';

test('findPackageFile: beside the module, else the nearest folder upward that has it, else undefined', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'package-file-'));
  try {
    const module = path.join(root, 'out', 'test', 'unit', 'x.test.js');
    const put = (file: string) => {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, '');
      return file;
    };
    put(module);
    const url = pathToFileURL(module).href;
    assert.equal(findPackageFile(url, 'worker.js', path.join('dist', 'worker.js')), undefined);
    const far = put(path.join(root, 'dist', 'worker.js'));
    assert.equal(findPackageFile(url, 'worker.js', path.join('dist', 'worker.js')), far);
    const near = put(path.join(root, 'out', 'dist', 'worker.js'));
    assert.equal(findPackageFile(url, 'worker.js', path.join('dist', 'worker.js')), near, 'the nearest folder wins');
    const beside = put(path.join(root, 'out', 'test', 'unit', 'worker.js'));
    assert.equal(findPackageFile(url, 'worker.js', path.join('dist', 'worker.js')), beside, 'beside the module first');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
