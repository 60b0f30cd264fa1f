// A registry list's kinds (alias type, user type) name its folder and ZIP: anything but the known
// values is refused before it reaches a path ("../../x" would leave the storage folder).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { registryZipName } from '../../../src/registry/listMaintenance';
import { indexStorageDir } from '../../../src/registry/listStorage';

test('list folders and ZIP names are built from the known kinds only', () => {
  const root = path.join('/', 'storage', 'registry-index');
  assert.equal(indexStorageDir(root, 'PK', 'Invoice'), path.join(root, 'PK-Invoice'));
  assert.equal(registryZipName('GB', 'DespatchAdvice'), 'registry-GB-DespatchAdvice.zip');
  for (const [alias, user] of [['../../../etc', 'Invoice'], ['PK', '../../x'], ['PK/..', 'Invoice'], ['constructor', 'Invoice'], ['pk', 'Invoice'], ['PK', '']]) {
    assert.throws(() => indexStorageDir(root, alias, user), /Not a registry list/, `${alias}/${user}`);
    assert.throws(() => registryZipName(alias, user), /Not a registry list/, `${alias}/${user}`);
  }
});
