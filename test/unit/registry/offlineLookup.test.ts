// The shared offline lookup: PK and GB lists of one user type merged, deleted aliases kept but
// marked, a new download picked up through the `current` pointer, listeners told, files released.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Taxpayer } from '../../../src/domain/registryXml';
import { buildIndex, indexStorageDir } from '../../../src/registry';
import { activeAliases, OfflineRegistry } from '../../../src/registry/offlineLookup';
import { buildTaxpayer } from '../../support/registryFixtures';

async function* from<T>(items: Iterable<T>): AsyncGenerator<T> {
  for (const item of items) yield item;
}

function gbTwin(t: Taxpayer): Taxpayer {
  return { ...t, Documents: t.Documents.map((d) => ({ type: d.type, aliases: d.aliases.map((a) => ({ ...a, Name: a.Name.replace('pk@', 'gb@') })) })) };
}

test('offline lookup merges PK and GB lists, follows a new download and releases files', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-lookup-'));
  const list = Array.from({ length: 200 }, (_, i) => buildTaxpayer(i));
  const registry = new OfflineRegistry(root, 'Invoice');
  assert.equal(registry.hasIndex(), false);
  assert.equal(registry.lookup(list[0].Identifier), undefined);

  await buildIndex(indexStorageDir(root, 'PK', 'Invoice'), from(list), { aliasType: 'PK', userType: 'Invoice', zipBytes: 1 });
  let changes = 0;
  registry.onDidChange(() => changes++);
  registry.invalidate();
  assert.equal(changes, 1);
  assert.deepEqual(registry.lists().map((l) => [l.aliasType, l.taxpayers]), [['PK', 200]]);

  // i = 1 has an active and a deleted Invoice alias, and no DespatchAdvice document.
  const one = registry.lookup(list[1].Identifier);
  assert.ok(one);
  assert.equal(one.title, list[1].Title);
  assert.deepEqual(one.aliases.map((a) => [a.name, a.kind, Boolean(a.deleted)]), [
    [`urn:mail:defaultpk@firma1.com.tr`, 'PK', false],
    [`urn:mail:eskipk@firma1.com.tr`, 'PK', true],
  ]);
  assert.deepEqual(activeAliases(one).map((a) => a.name), ['urn:mail:defaultpk@firma1.com.tr']);
  // i = 0 has a DespatchAdvice alias too: an Invoice lookup leaves it out.
  assert.ok(registry.lookup(list[0].Identifier)!.aliases.every((a) => a.document === 'Invoice'));
  assert.equal(registry.lookup('1234567890'), undefined);

  // A GB list arrives: both kinds are merged, oldest download date reported.
  await buildIndex(indexStorageDir(root, 'GB', 'Invoice'), from(list.map(gbTwin)), { aliasType: 'GB', userType: 'Invoice', zipBytes: 1 });
  registry.invalidate();
  assert.equal(changes, 2);
  const merged = registry.lookup(list[1].Identifier)!;
  assert.deepEqual(activeAliases(merged, 'GB').map((a) => a.name), ['urn:mail:defaultgb@firma1.com.tr']);
  assert.deepEqual(activeAliases(merged, 'PK').map((a) => a.name), ['urn:mail:defaultpk@firma1.com.tr']);
  assert.equal(merged.downloadedAt, registry.lists().map((l) => l.downloadedAt).sort()[0]);

  // A re-download without taxpayer 1 replaces the PK list; the lookup follows it.
  await buildIndex(indexStorageDir(root, 'PK', 'Invoice'), from(list.slice(2)), { aliasType: 'PK', userType: 'Invoice', zipBytes: 1 });
  registry.invalidate();
  assert.deepEqual(registry.lookup(list[1].Identifier)!.aliases.map((a) => a.kind), ['GB', 'GB']);

  registry.close();
  fs.rmSync(root, { recursive: true });
  assert.equal(fs.existsSync(root), false);
});
