// The profile store and the upgrade from per-environment keys, in plain Node over in-memory
// stand-ins for VS Code's Memento and SecretStorage (the same calls, the same semantics).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { legacySecretName, migrateKey, migrateLegacyKeys } from '../../../src/shell/profileMigration';
import {
  defaultProfileId,
  parseProfile,
  profileOrigin,
  profileSecretName,
  ProfileStore,
  PROFILES_STATE_KEY,
  type MementoLike,
} from '../../../src/shell/profileStore';
import { guardStaleAnswers, ProfileSwitchedError } from '../../../src/shell/staleAnswers';

const folders: string[] = [];
/** A fresh global storage folder (the profile records live in a file there). */
const tempDir = (): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-profiles-'));
  folders.push(dir);
  return dir;
};
after(() => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

class MemoryMemento implements MementoLike {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, JSON.parse(JSON.stringify(value)));
  }
}

class MemorySecrets {
  readonly values = new Map<string, string>();
  failStoreOnce = false;
  async get(name: string): Promise<string | undefined> {
    return this.values.get(name);
  }
  async store(name: string, value: string): Promise<void> {
    if (this.failStoreOnce) {
      this.failStoreOnce = false;
      throw new Error('keyring locked');
    }
    this.values.set(name, value);
  }
  async delete(name: string): Promise<void> {
    this.values.delete(name);
  }
}

const label = (env: string): string => `label:${env}`;

/** What the release before profiles left behind: one key per environment, one per custom origin. */
function legacyState(): { secrets: MemorySecrets; memento: MemoryMemento } {
  const secrets = new MemorySecrets();
  secrets.values.set('nilvera.apiKey.production', 'PROD-KEY');
  secrets.values.set('nilvera.apiKey.test', 'TEST-KEY');
  secrets.values.set('nilvera.apiKey.custom:https://nilvera.example.com', 'CUSTOM-KEY');
  secrets.values.set('nilvera.apiKey.custom:https://other.example.com', 'OTHER-KEY');
  return { secrets, memento: new MemoryMemento() };
}

test('the migration turns each old key into its environment default profile and removes the old secret', async () => {
  const { secrets, memento } = legacyState();
  const store = new ProfileStore(tempDir(), memento);
  const result = await migrateLegacyKeys({ secrets, store, customUrls: ['https://nilvera.example.com/general-is-not-here/', 'not a url'], label });
  assert.deepEqual(result.sort(), ['custom:https://nilvera.example.com', 'production', 'test']);
  assert.deepEqual(
    store.all().map((p) => [p.id, p.environment, p.name, p.baseUrl]).sort(),
    [
      ['custom:https://nilvera.example.com', 'custom', 'label:custom', 'https://nilvera.example.com/general-is-not-here'],
      ['production', 'production', 'label:production', undefined],
      ['test', 'test', 'label:test', undefined],
    ],
  );
  assert.equal(secrets.values.get(profileSecretName('production')), 'PROD-KEY');
  assert.equal(secrets.values.get(profileSecretName('test')), 'TEST-KEY');
  assert.equal(secrets.values.get(profileSecretName('custom:https://nilvera.example.com')), 'CUSTOM-KEY');
  for (const env of ['production', 'test'] as const) assert.equal(secrets.values.has(legacySecretName(env)), false);
  assert.equal(secrets.values.has('nilvera.apiKey.custom:https://nilvera.example.com'), false);
  // An origin no setting names stays where it was until a setting names it again.
  assert.equal(secrets.values.get('nilvera.apiKey.custom:https://other.example.com'), 'OTHER-KEY');
  assert.equal(await migrateKey({ secrets, store, label }, 'custom', 'https://other.example.com'), 'custom:https://other.example.com');
  assert.equal(secrets.values.get(profileSecretName(defaultProfileId('custom', 'https://other.example.com'))), 'OTHER-KEY');
  assert.equal(secrets.values.has('nilvera.apiKey.custom:https://other.example.com'), false);
});

test('running the migration twice changes nothing the second time', async () => {
  const { secrets, memento } = legacyState();
  const store = new ProfileStore(tempDir(), memento);
  const input = { secrets, store, customUrls: ['https://nilvera.example.com'], label };
  await migrateLegacyKeys(input);
  const profilesAfterFirst = JSON.stringify(memento.values.get(PROFILES_STATE_KEY));
  const secretsAfterFirst = JSON.stringify([...secrets.values].sort());
  const second = await migrateLegacyKeys(input);
  assert.deepEqual(second, []);
  assert.equal(JSON.stringify(memento.values.get(PROFILES_STATE_KEY)), profilesAfterFirst);
  assert.equal(JSON.stringify([...secrets.values].sort()), secretsAfterFirst);
});

test('a keyring failure while copying keeps the old secret for the next run', async () => {
  const { secrets, memento } = legacyState();
  const store = new ProfileStore(tempDir(), memento);
  secrets.failStoreOnce = true;
  await assert.rejects(migrateLegacyKeys({ secrets, store, customUrls: [], label }), /keyring locked/);
  assert.equal(secrets.values.get('nilvera.apiKey.production'), 'PROD-KEY', 'the only copy must survive');
  await migrateLegacyKeys({ secrets, store, customUrls: [], label });
  assert.equal(secrets.values.get(profileSecretName('production')), 'PROD-KEY');
  assert.equal(secrets.values.has('nilvera.apiKey.production'), false);
});

test('a key set under the new name after the upgrade wins over a leftover old one', async () => {
  const { secrets, memento } = legacyState();
  secrets.values.set(profileSecretName('production'), 'NEWER-KEY');
  await migrateLegacyKeys({ secrets, store: new ProfileStore(tempDir(), memento), customUrls: [], label });
  assert.equal(secrets.values.get(profileSecretName('production')), 'NEWER-KEY');
  assert.equal(secrets.values.has('nilvera.apiKey.production'), false);
});

test('the store keeps valid records only; an environment always maps to its default profile, never to one of several companies by chance', async () => {
  const memento = new MemoryMemento();
  await memento.update(PROFILES_STATE_KEY, [
    { id: 'a', name: 'Acme', environment: 'production', lastUsedAt: 10 },
    { id: 'b', name: 'Beta', environment: 'production', lastUsedAt: 20 },
    { id: 'c', name: 'Bad URL', environment: 'custom', baseUrl: 'http://remote.example.com' },
    { id: 'a', name: 'Duplicate', environment: 'test' },
    { name: 'no id', environment: 'test' },
    'junk',
  ]);
  const store = new ProfileStore(tempDir(), memento);
  assert.deepEqual(store.all().map((p) => p.id), ['a', 'b']);
  // Not stored yet: a draft of the default profile, written by nobody until it is used.
  const draft = store.forEnvironment('production', undefined, 'Production');
  assert.deepEqual(draft, { id: 'production', name: 'Production', environment: 'production' });
  assert.equal(store.get('production'), undefined);
  await store.put({ ...draft, name: 'Renamed' });
  assert.equal(store.forEnvironment('production', undefined, 'Production').name, 'Renamed');
  const custom = store.forEnvironment('custom', 'https://x.example.com/api', 'Custom');
  assert.deepEqual(custom, { id: 'custom:https://x.example.com', name: 'Custom', environment: 'custom', baseUrl: 'https://x.example.com/api' });
  await store.remove('a');
  assert.deepEqual(store.all().map((p) => p.id).sort(), ['b', 'production']);
});

test("a profile's key may go to its own origin only", () => {
  assert.equal(profileOrigin({ id: 'p', name: 'P', environment: 'production' }, undefined), 'https://api.nilvera.com');
  assert.equal(profileOrigin({ id: 'p', name: 'P', environment: 'custom', baseUrl: 'https://x.example.com/api' }, undefined), 'https://x.example.com');
  assert.equal(profileOrigin({ id: 's', name: 'S', environment: 'sandbox' }, 'http://127.0.0.1:4000'), 'http://127.0.0.1:4000');
  assert.equal(profileOrigin({ id: 's', name: 'S', environment: 'sandbox' }, 'http://evil.example.com:4000'), undefined);
  assert.equal(profileOrigin({ id: 's', name: 'S', environment: 'sandbox' }, undefined), undefined);
  assert.equal(parseProfile({ id: 'c', name: 'C', environment: 'custom', baseUrl: 'https://u:p@x.example.com' }), undefined);
});

test('an answer that settles after the generation moved on becomes a silent ProfileSwitchedError', async () => {
  let current = true;
  let release: (v: string) => void = () => undefined;
  const client = guardStaleAnswers({ company: { get: () => new Promise<string>((r) => (release = r)), name: 'area-field' } }, () => current);
  const pending = client.company.get();
  current = false;
  release('company of the previous profile');
  const error = await pending.then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof ProfileSwitchedError);
  assert.equal((error as ProfileSwitchedError).kind, 'cancelled');
  await assert.rejects(client.company.get(), ProfileSwitchedError, 'a call started after the switch never goes out');
  current = true;
  const ok = guardStaleAnswers({ company: { get: async () => 'fresh' } }, () => current);
  assert.equal(await ok.company.get(), 'fresh');
});

test("the client-wide signal (a profile generation's AbortController) stops an in-flight call over real HTTP and every later one", async () => {
  const { createClient, NilveraApiError } = await import('../../../src/api');
  const { withSandbox } = await import('../../support/sandbox');
  await withSandbox({ customers: 5, registry: 10, faults: { latencyMs: 2000, match: { path: '^/general/company$' } } }, async (sandbox) => {
    const generation = new AbortController();
    const client = createClient({ baseUrl: sandbox.url, getApiKey: async () => sandbox.keys.full, signal: generation.signal, retry: { retries: 0 } });
    const started = Date.now();
    const slow = client.company.get().then(() => undefined, (e: unknown) => e);
    setTimeout(() => generation.abort(), 100);
    const error = await slow;
    assert.ok(error instanceof NilveraApiError && error.kind === 'cancelled', String(error));
    assert.ok(Date.now() - started < 1500, 'the call stopped at the abort, not at the answer');
    await assert.rejects(client.account.credits(), (e: unknown) => e instanceof NilveraApiError && e.kind === 'cancelled');
  });
});
