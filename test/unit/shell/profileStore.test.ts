// The profile records shared by every window (src/shell/profileStore.ts). VS Code keeps an
// extension's globalState as one value per extension: each window holds a copy, writes the whole of it,
// and the last write wins; the first test plays that out step by step for the list the releases before
// kept there. The store keeps the records in a file of the global storage instead, changed under a lock
// by read-modify-write: two windows (two store instances here, four processes below) changing the
// list within milliseconds never drop a profile or bring a removed one back.
import * as assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { PROFILES_FILE, PROFILES_STATE_KEY, ProfileStore, type Profile } from '../../../src/shell/profileStore';

const profile = (id: string, name = id): Profile => ({ id, name, environment: 'production' });
const ids = (records: Profile[]) => records.map((p) => p.id).sort();
const folders: string[] = [];
const tempDir = (): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-profile-store-'));
  folders.push(dir);
  return dir;
};
const inFile = (dir: string): Profile[] => JSON.parse(fs.readFileSync(path.join(dir, PROFILES_FILE), 'utf8')) as Profile[];

type State = Record<string, unknown>;
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** globalState across windows: one stored value, a copy per window, whole-value writes, news delivered later. */
class SharedGlobalState {
  stored: State = {};
  private readonly copies: State[] = [];
  window(): { get<T>(key: string): T | undefined; update(key: string, value: unknown): Promise<void>; receive(): void } {
    const copy: State = clone(this.stored);
    this.copies.push(copy);
    return {
      get: <T>(key: string) => copy[key] as T | undefined,
      update: async (key, value) => {
        copy[key] = clone(value);
        this.stored = clone(copy); // the window's whole value
      },
      // The other windows hear of a write a moment later.
      receive: () => {
        for (const k of Object.keys(copy)) delete copy[k];
        Object.assign(copy, clone(this.stored));
      },
    };
  }
}

const CHILD = process.env.PROFILE_STORE_WINDOW;

/** A window (process) that adds its own profiles, renames and removes some, and fights over a shared one. */
async function window(name: string, dir: string): Promise<void> {
  const store = new ProfileStore(dir);
  const work: Array<Promise<void>> = [];
  for (let i = 0; i < 10; i++) work.push(store.add(profile(`${name}-${i}`)));
  await Promise.all(work);
  for (let i = 0; i < 5; i++) work.push(store.update(`${name}-${i}`, (p) => ({ ...p, name: `${name} renamed ${i}` })));
  for (let i = 5; i < 10; i += 2) work.push(store.remove(`${name}-${i}`));
  // Every window renames the shared profile while one removes it: once removed, it stays removed.
  work.push(name === 'w0' ? store.remove('shared') : store.update('shared', (p) => ({ ...p, lastUsedAt: Date.now() })));
  await Promise.all(work);
}

if (CHILD) {
  void window(CHILD, process.env.PROFILE_STORE_DIR as string).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  after(() => {
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('profiles shared by several windows', () => {
    test('over globalState (the releases before), two windows changing the list within milliseconds drop one change or bring a removed profile back', async () => {
      const shared = new SharedGlobalState();
      shared.stored = { [PROFILES_STATE_KEY]: [profile('acme'), profile('beta')] };
      const [a, b] = [shared.window(), shared.window()];
      const list = (w: typeof a): Profile[] => w.get<Profile[]>(PROFILES_STATE_KEY) ?? [];
      // A removes Acme (and deletes its key); B adds Gamma before it has heard of that.
      await a.update(PROFILES_STATE_KEY, list(a).filter((p) => p.id !== 'acme'));
      await b.update(PROFILES_STATE_KEY, [...list(b), profile('gamma')]);
      a.receive();
      assert.deepEqual(ids(shared.stored[PROFILES_STATE_KEY] as Profile[]), ['acme', 'beta', 'gamma'], 'Acme is back, without its key');
      // And the other way round: B's new profile is lost.
      await b.update(PROFILES_STATE_KEY, [...list(b), profile('delta')]);
      await a.update(PROFILES_STATE_KEY, list(a).filter((p) => p.id !== 'beta'));
      assert.deepEqual(ids(shared.stored[PROFILES_STATE_KEY] as Profile[]), ['acme', 'gamma'], 'Delta is gone');
    });

    test('through the shared file the same two windows keep every change, and a removed profile is not brought back', async () => {
      const dir = tempDir();
      const [a, b] = [new ProfileStore(dir), new ProfileStore(dir)];
      await a.put(profile('acme'));
      await a.put(profile('beta'));
      assert.deepEqual(ids(b.all()), ['acme', 'beta'], "B reads A's records");
      // In the same tick: A removes Acme, B adds Gamma and renames Acme (a switch there, say).
      const changes = [a.remove('acme'), b.add(profile('gamma')), b.update('acme', (p) => ({ ...p, name: 'Acme (renamed)' }))];
      assert.deepEqual(ids(b.all()), ['acme', 'beta', 'gamma'], "B's own changes show at once");
      await Promise.all(changes);
      assert.deepEqual(ids(inFile(dir)), ['beta', 'gamma']);
      assert.deepEqual(ids(a.all()), ['beta', 'gamma'], 'A reads what B wrote');
      assert.deepEqual(ids(b.all()), ['beta', 'gamma'], 'B reads what A wrote');
      // The other way round: nothing lost either.
      await Promise.all([b.add(profile('delta')), a.remove('beta')]);
      assert.deepEqual(ids(inFile(dir)), ['delta', 'gamma']);
    });

    test('four windows (processes) changing the list at once: every change kept, the removed profile stays removed', async () => {
      const dir = tempDir();
      await new ProfileStore(dir).put(profile('shared'));
      const windows = ['w0', 'w1', 'w2', 'w3'].map((name) => {
        const p = fork(__filename, [], { env: { ...process.env, PROFILE_STORE_WINDOW: name, PROFILE_STORE_DIR: dir }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
        return new Promise<number | null>((resolve) => p.once('exit', (code) => resolve(code)));
      });
      assert.deepEqual(await Promise.all(windows), [0, 0, 0, 0]);
      const records = inFile(dir);
      const expected = ['w0', 'w1', 'w2', 'w3'].flatMap((w) => [0, 1, 2, 3, 4, 6, 8].map((i) => `${w}-${i}`)).sort();
      assert.deepEqual(ids(records), expected, 'each window added 10, removed 3 of its own; the shared one was removed');
      for (const w of ['w0', 'w1', 'w2', 'w3']) for (let i = 0; i < 5; i++) assert.equal(records.find((p) => p.id === `${w}-${i}`)?.name, `${w} renamed ${i}`);
      assert.deepEqual(fs.readdirSync(dir), [PROFILES_FILE], 'no lock or temporary file is left');
    });

    test('the records the releases before kept in globalState are read until the file exists, and become its first content', async () => {
      const dir = tempDir();
      const legacy = { get: <T>(key: string) => (key === PROFILES_STATE_KEY ? ([profile('production', 'Acme'), profile('p-1', 'Beta'), { junk: true }] as T) : undefined) };
      const store = new ProfileStore(dir, legacy);
      assert.deepEqual(ids(store.all()), ['p-1', 'production']);
      assert.ok(!fs.existsSync(path.join(dir, PROFILES_FILE)), 'reading writes nothing');
      await store.add(profile('p-2', 'Gamma'));
      assert.deepEqual(ids(inFile(dir)), ['p-1', 'p-2', 'production']);
      // Another window, upgraded too: the file is what counts now.
      assert.deepEqual(ids(new ProfileStore(dir, { get: () => undefined }).all()), ['p-1', 'p-2', 'production']);
      // A first start: the global storage folder does not exist yet.
      const fresh = path.join(tempDir(), 'globalStorage');
      await new ProfileStore(fresh).add(profile('sandbox'));
      assert.deepEqual(ids(inFile(fresh)), ['sandbox']);
    });
  });
}
