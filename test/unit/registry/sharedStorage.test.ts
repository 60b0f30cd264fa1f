// Several VS Code windows share one registry list's storage (globalStorage/registry-index/<list>): each
// window is a process of its own. Real child processes run the real build and install code
// (PendingIndex) and the real reader (OfflineRegistry), raced by this test round after round; after
// every round the list must be usable: `current` names a complete index that answers a lookup.
import * as assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import type { Taxpayer } from '../../../src/domain/registryXml';
import { PendingIndex } from '../../../src/registry/builder';
import { CURRENT_POINTER } from '../../../src/registry/format';
import { OfflineRegistry } from '../../../src/registry/offlineLookup';
import { currentIndexFolder } from '../../../src/registry/listStorage';
import { RegistryIndexReader } from '../../../src/registry/reader';
import { buildTaxpayer } from '../../support/registryFixtures';

const ROUNDS = 20;
const ROLE = process.env.SHARED_STORAGE_ROLE;
const SOURCE = { aliasType: 'PK', userType: 'Invoice', zipBytes: 1 };
const LIST_SIZE = 500;
/** The taxpayer every round's lookups ask for (in every list built here). */
const PROBE = buildTaxpayer(7);

/** The list a window installs in round `round`: the same taxpayers, one title telling who built it. */
function listOf(tag: string): Taxpayer[] {
  const list = Array.from({ length: LIST_SIZE }, (_, i) => buildTaxpayer(i));
  list[0] = { ...list[0], Title: `BUILT BY ${tag}` };
  return list;
}

async function* from<T>(items: Iterable<T>): AsyncGenerator<T> {
  for (const item of items) yield item;
}

type Message = { cmd: 'build'; tag: string } | { cmd: 'install' } | { cmd: 'status' } | { cmd: 'exit' };

/** A window that builds the list when told and installs it when told (so two installs start together). */
function installerWindow(storageDir: string): void {
  let pending: PendingIndex | undefined;
  process.on('message', (m: Message) => {
    void (async () => {
      try {
        if (m.cmd === 'build') {
          pending = await PendingIndex.start(storageDir);
          await pending.addFrom(from(listOf(m.tag)));
          await pending.finish(SOURCE);
          process.send?.({ built: true });
        } else if (m.cmd === 'install') {
          await pending?.install();
          pending = undefined;
          process.send?.({ installed: true });
        } else if (m.cmd === 'exit') process.exit(0);
      } catch (error) {
        process.send?.({ error: String(error) });
      }
    })();
  });
  process.send?.({ ready: true });
}

/** A window whose hovers look the probe taxpayer up all the time (the shared OfflineRegistry). */
function readerWindow(root: string): void {
  const registry = new OfflineRegistry(root, 'Invoice');
  let lookups = 0;
  const failures: string[] = [];
  const tick = setInterval(() => {
    try {
      const found = registry.lookup(PROBE.Identifier);
      lookups++;
      if (found?.title !== PROBE.Title) failures.push(`lookup ${lookups}: ${found ? found.title : 'not found'}`);
    } catch (error) {
      failures.push(`lookup ${lookups}: ${String(error)}`);
    }
  }, 3);
  process.on('message', (m: Message) => {
    if (m.cmd === 'status') process.send?.({ folder: registry.lists()[0]?.folder, lookups, failures });
    if (m.cmd === 'exit') {
      clearInterval(tick);
      registry.close();
      process.exit(0);
    }
  });
  process.send?.({ ready: true });
}

if (ROLE === 'installer') installerWindow(process.env.SHARED_STORAGE_DIR as string);
else if (ROLE === 'reader') readerWindow(process.env.SHARED_STORAGE_ROOT as string);
else {
  interface Window {
    ask<T>(m: Message): Promise<T>;
    process: ChildProcess;
  }

  function openWindow(role: string, env: Record<string, string>): Promise<Window> {
    const child = fork(__filename, [], { env: { ...process.env, SHARED_STORAGE_ROLE: role, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const replies: Array<(m: unknown) => void> = [];
    child.on('message', (m) => replies.shift()?.(m));
    const ask = <T>(m: Message): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        replies.push((reply) => ((reply as { error?: string }).error ? reject(new Error((reply as { error: string }).error)) : resolve(reply as T)));
        child.send(m);
      });
    return new Promise((resolve) => {
      replies.push(() => resolve({ ask, process: child }));
    });
  }

  const roots: string[] = [];
  const windows: Window[] = [];
  after(() => {
    for (const w of windows) w.process.kill('SIGKILL');
    for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
  });

  /** Whether the list is usable now: `current` names a complete index that finds the probe. */
  function usable(storageDir: string): { ok: boolean; builtBy?: string; why?: string } {
    const pointer = path.join(storageDir, CURRENT_POINTER);
    const name = fs.existsSync(pointer) ? fs.readFileSync(pointer, 'utf8').trim() : '(no pointer)';
    const folder = currentIndexFolder(storageDir);
    if (!folder) return { ok: false, why: `current names ${name}, which is not there` };
    try {
      const reader = RegistryIndexReader.openFolder(folder);
      try {
        const probe = reader.byTaxNumber(PROBE.Identifier);
        if (probe?.Title !== PROBE.Title) return { ok: false, why: 'the probe taxpayer is missing' };
        return { ok: true, builtBy: reader.byTaxNumber(buildTaxpayer(0).Identifier)?.Title };
      } finally {
        reader.close();
      }
    } catch (error) {
      return { ok: false, why: String(error) };
    }
  }

  const indexFolders = (storageDir: string) => fs.readdirSync(storageDir).filter((n) => n.startsWith('index-')).sort();

  const waitFor = async (what: string, condition: () => boolean | Promise<boolean>, ms = 5000): Promise<void> => {
    const deadline = Date.now() + ms;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  describe('one registry list shared by several windows', () => {
    test(`two windows install the same list at the same moment, ${ROUNDS} rounds: the list is usable after every round`, async () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-shared-'));
      roots.push(root);
      const storageDir = path.join(root, 'PK-Invoice');
      const [a, b] = await Promise.all(['A', 'B'].map(() => openWindow('installer', { SHARED_STORAGE_DIR: storageDir })));
      windows.push(a, b);
      const outcomes: string[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        await Promise.all([a.ask({ cmd: 'build', tag: `A${round}` }), b.ask({ cmd: 'build', tag: `B${round}` })]);
        await Promise.all([a.ask({ cmd: 'install' }), b.ask({ cmd: 'install' })]);
        const state = usable(storageDir);
        const folders = indexFolders(storageDir).length;
        // Nobody reads the list here: the folder each install replaced must be gone, none left over.
        if (!state.ok) outcomes.push(`BROKEN: ${state.why}`);
        else outcomes.push(`${folders === 1 ? 'usable' : 'LEAKED'} (${state.builtBy?.replace('BUILT BY ', '')} installed, ${folders} index folder${folders === 1 ? '' : 's'})`);
      }
      console.log(`two windows installing at once, ${ROUNDS} rounds:\n${outcomes.map((o, i) => `  round ${String(i + 1).padStart(2)}: ${o}`).join('\n')}`);
      const broken = outcomes.filter((o) => o.startsWith('BROKEN')).length;
      assert.equal(broken, 0, `${broken} of ${ROUNDS} rounds left no usable list`);
      const leaked = outcomes.filter((o) => o.startsWith('LEAKED')).length;
      assert.equal(leaked, 0, `${leaked} of ${ROUNDS} rounds left index folders nobody uses`);
      await Promise.all([a, b].map((w) => w.process.send({ cmd: 'exit' })));
    });

    test(`a window reads the list while another installs it, ${ROUNDS} rounds: every lookup answers, the folder in use is kept until let go`, async () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-shared-'));
      roots.push(root);
      const storageDir = path.join(root, 'PK-Invoice');
      const installer = await openWindow('installer', { SHARED_STORAGE_DIR: storageDir });
      windows.push(installer);
      await installer.ask({ cmd: 'build', tag: 'first' });
      await installer.ask({ cmd: 'install' });
      const reader = await openWindow('reader', { SHARED_STORAGE_ROOT: root });
      windows.push(reader);
      type Status = { folder?: string; lookups: number; failures: string[] };
      const status = () => reader.ask<Status>({ cmd: 'status' });
      await waitFor('the reader has the list open', async () => (await status()).folder !== undefined);
      const outcomes: string[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        await installer.ask({ cmd: 'build', tag: `round ${round}` });
        const held = (await status()).folder as string;
        await installer.ask({ cmd: 'install' });
        const state = usable(storageDir);
        const now = await status();
        const problems: string[] = [];
        if (!state.ok) problems.push(`no usable list: ${state.why}`);
        if (now.folder === held && !fs.existsSync(held)) problems.push(`the folder the reader holds (${path.basename(held)}) was deleted`);
        await waitFor('the reader switched to the new index', async () => (await status()).folder === currentIndexFolder(storageDir)).catch((e: Error) => problems.push(e.message));
        await waitFor('the folder the reader let go of is removed', () => indexFolders(storageDir).length === 1).catch(() => problems.push(`left behind: ${indexFolders(storageDir).join(', ')}`));
        outcomes.push(problems.length ? `BROKEN: ${problems.join('; ')}` : `usable, reader switched, ${indexFolders(storageDir).length} index folder`);
      }
      const final = await status();
      console.log(`a reader while another window installs, ${ROUNDS} rounds (${final.lookups} lookups, ${final.failures.length} failed):\n${outcomes.map((o, i) => `  round ${String(i + 1).padStart(2)}: ${o}`).join('\n')}`);
      assert.deepEqual(final.failures.slice(0, 5), [], 'every lookup found the probe taxpayer');
      const broken = outcomes.filter((o) => o.startsWith('BROKEN')).length;
      assert.equal(broken, 0, `${broken} of ${ROUNDS} rounds went wrong`);
      for (const w of [installer, reader]) w.process.send({ cmd: 'exit' });
    });
  });
}
