// Another installed extension runs in the same extension host: it can read our `exports` and run any
// command of ours with arguments of its choosing. This suite plays that extension. It checks the
// production shape (the suite itself runs in Test mode, where the test seams exist: what another
// mode gets is decided by src/shell/testSeams.ts, checked here with the production mode), then runs
// every registered `nilvera.*` command with hostile arguments while the extension acts as in
// production, with a key stored, every question declined: no answer holds the key or anything
// callable, the sandbox account is unchanged and no file appears where the caller said.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ConnectionCommands, DiagnosticsCommands, FormCommands, PaletteCommands, PreviewCommands, ProfileCommands, ReconciliationCommands, Settings, TreeCommands } from '../../src/constants';
import { registerOnFirstUse, registerRawCommand } from '../../src/shell/commandRunner';
import type { MessageLevel, Prompts } from '../../src/shell/prompts';
import { commandIdsFor, extensionExports, openTestSeamsFor } from '../../src/shell/testSeams';
import { activateExtension } from '../support/extension';
import { sandboxState } from '../support/sandbox';
import { startSandboxSuite, type SandboxSuite } from '../support/sandboxSuite';

/** Declines every question and records what was asked. */
class DecliningPrompts implements Prompts {
  readonly asked: Array<{ kind: string; text: string; level?: MessageLevel }> = [];
  async inputBox(options: vscode.InputBoxOptions): Promise<string | undefined> {
    this.asked.push({ kind: 'input', text: options.title ?? options.prompt ?? '' });
    return undefined;
  }
  async quickPick<T extends vscode.QuickPickItem>(_items: readonly T[], options: vscode.QuickPickOptions): Promise<T | undefined> {
    this.asked.push({ kind: 'pick', text: options.title ?? options.placeHolder ?? '' });
    return undefined;
  }
  async message(level: MessageLevel, text: string): Promise<string | undefined> {
    this.asked.push({ kind: 'message', level, text });
    return undefined;
  }
  async openDialog(): Promise<vscode.Uri[] | undefined> {
    this.asked.push({ kind: 'open', text: '' });
    return undefined;
  }
  async saveDialog(): Promise<vscode.Uri | undefined> {
    this.asked.push({ kind: 'save', text: '' });
    return undefined;
  }
  async searchPick(): Promise<undefined> {
    this.asked.push({ kind: 'search', text: '' });
    return undefined;
  }
}

/** What an own getter answers (a VS Code document's fields are getters), or its error's text. */
function readGetter(owner: object, key: string | symbol): unknown {
  try {
    return Reflect.get(owner, key);
  } catch (error) {
    return String(error);
  }
}

/** Where `needle` or a function is reachable from `value` (own properties, also non-enumerable ones and getters). */
function findLeaks(value: unknown, needle: string): string[] {
  const found: string[] = [];
  const seen = new Set<object>();
  const walk = (v: unknown, at: string, depth: number): void => {
    if (found.length > 5) return;
    if (typeof v === 'string') {
      if (v.includes(needle)) found.push(`${at}: holds the key`);
      return;
    }
    if (typeof v === 'function') {
      found.push(`${at}: a function (${v.name || 'anonymous'}) came back`);
      return;
    }
    if (typeof v !== 'object' || v === null || seen.has(v) || depth > 40) return;
    seen.add(v);
    if (v instanceof vscode.Uri) return walk(v.toString(), at, depth + 1);
    // VS Code's own document objects (every extension reaches them anyway): only their text counts.
    if (vscode.workspace.textDocuments.includes(v as vscode.TextDocument)) return walk((v as vscode.TextDocument).getText(), `${at}.getText()`, depth + 1);
    for (const key of Reflect.ownKeys(v)) {
      const descriptor = Object.getOwnPropertyDescriptor(v, key);
      if (descriptor && 'value' in descriptor) walk(descriptor.value, `${at}.${String(key)}`, depth + 1);
      else if (descriptor?.get) walk(readGetter(v, key), `${at}.${String(key)}`, depth + 1);
    }
  };
  walk(value, '(answer)', 0);
  return found;
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

async function withTimeout<T>(work: Thenable<T>, ms: number): Promise<{ value?: T; error?: unknown; timedOut?: boolean }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<{ timedOut: true }>((resolve) => (timer = setTimeout(() => resolve({ timedOut: true }), ms)));
  try {
    return await Promise.race([Promise.resolve(work).then((value) => ({ value }), (error: unknown) => ({ error })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

suite('Another extension: exports and commands hold nothing to take', function () {
  this.timeout(600_000);
  let suiteState: SandboxSuite;
  const prompts = new DecliningPrompts();
  let hostile: string;

  suiteSetup(async () => {
    suiteState = await startSandboxSuite({ customers: 20, registry: 2_000, seed: 37 }, prompts);
    hostile = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-hostile-'));
    fs.writeFileSync(path.join(hostile, 'design.xslt'), '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"/>');
    fs.writeFileSync(path.join(hostile, 'customers.csv'), 'Name,TaxNumber\nHostile Ltd,1234567890\n');
    fs.writeFileSync(path.join(hostile, 'document.pdf'), '%PDF-1.4 hostile');
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await suiteState?.close();
    if (hostile) fs.rmSync(hostile, { recursive: true, force: true });
  });

  test('in production the exports are the activation figures only, and no internal command is registered', async () => {
    const key = suiteState.sandbox.keys.full;
    const figures = { activationMs: 1.5, activationSteps: [{ step: 'shell commands', ms: 1.5 }] };
    const seams = () => suiteState.api.testing;
    for (const mode of [vscode.ExtensionMode.Production, vscode.ExtensionMode.Development]) {
      const exported = extensionExports(mode, figures, seams) as unknown as Record<string, unknown>;
      assert.deepEqual(Object.keys(exported).sort(), ['activationMs', 'activationSteps'], `mode ${mode}: ${Object.keys(exported).join(', ')}`);
      assert.deepEqual(findLeaks(exported, key), [], `mode ${mode}`);
    }
    // Test mode hands the seams out; that is what the rest of the suite uses.
    assert.ok('testing' in extensionExports(vscode.ExtensionMode.Test, figures, seams));
    // What Test mode exports besides the seams is what production exports.
    const real = (await activateExtension()) as unknown as Record<string, unknown>;
    assert.deepEqual(Object.keys(real).filter((k) => k !== 'testing').sort(), ['activationMs', 'activationSteps']);

    const tables: Array<Record<string, string>> = [TreeCommands, FormCommands, PaletteCommands, DiagnosticsCommands, ReconciliationCommands, ConnectionCommands, ProfileCommands, PreviewCommands];
    const allIds = tables.flatMap((table) => Object.values(table));
    const internal = allIds.filter((id) => id.startsWith('nilvera.internal.'));
    assert.ok(internal.length >= 6, `the feature tables name ${internal.length} internal commands`);
    assert.deepEqual(commandIdsFor(vscode.ExtensionMode.Production, allIds).filter((id) => id.startsWith('nilvera.internal.')), []);
    assert.deepEqual(commandIdsFor(vscode.ExtensionMode.Production, allIds).length, allIds.length - internal.length);
    assert.deepEqual(commandIdsFor(vscode.ExtensionMode.Test, allIds), allIds);

    // The registration itself (this bundle's own copy of the command runner): seams closed as in
    // production, an internal id reaches VS Code by neither way of registering a command.
    openTestSeamsFor(vscode.ExtensionMode.Production);
    const probes = [`nilvera.internal.hostileProbe${Date.now()}`, `nilvera.internal.hostileProbeOnFirstUse${Date.now()}`];
    const registered = [registerRawCommand(probes[0], () => 'reached')];
    registerOnFirstUse(commandIdsFor(vscode.ExtensionMode.Production, [probes[1]]), { parts: async () => undefined }, registered);
    try {
      const ids = new Set(await vscode.commands.getCommands(true));
      assert.deepEqual(probes.filter((id) => ids.has(id)), [], 'an internal command was registered with the seams closed');
    } finally {
      registered.forEach((d) => d.dispose());
    }
  });

  test('every nilvera command, run with arguments another extension chooses, neither hands out the key nor changes the account without asking', async () => {
    const { api, sandbox } = suiteState;
    const services = api.testing.services;
    const key = sandbox.keys.full;
    const secretName = services.secretName('custom');
    assert.equal(await services.keys.get(secretName), key, 'the key is stored');
    const profileBefore = services.activeProfile().id;
    const config = () => vscode.workspace.getConfiguration(Settings.section);
    const settingsBefore = { environment: config().get(Settings.environment), customUrl: config().get(Settings.customUrl) };
    const stateBefore = await sandboxState(sandbox);
    const filesBefore = filesUnder(hostile);
    sandbox.resetRequestLog();

    // The hostile arguments: what the commands' scripted forms take, our nodes' shapes, paths out of
    // the storage folder, a folder and files of the caller's choosing, strings naming environments.
    const inHostile = (name: string) => path.join(hostile, name);
    const everything = {
      feature: 'email', isActive: false, id: 1, change: 'deactivate', keep: 'inactive', name: 'hostile', file: inHostile('design.xslt'),
      userName: 'hostile', password: 'hostile', aliasType: 'PK', userType: 'Invoice', folder: hostile, source: 'online',
      customerId: 1, prefill: { Name: 'Hostile' }, certificate: { ID: 1 }, profileId: 'production', taxNumber: '1234567890', text: '1234567890', noDocument: true,
      design: inHostile('design.xslt'), invoice: inHostile('customers.csv'), area: 'customers', restore: { viewType: 'nilvera.form.settings', state: {} },
    };
    const nodeShaped = { setting: { ModuleID: 'Portal', IsActive: true }, toggleable: true, customer: { ID: 1, TaxNumber: '1234567890', Name: 'x' }, document: { ID: 1 }, identification: { ID: 1 }, company: { TaxNumber: '1234567890', Name: 'x' }, contextValue: 'customer' };
    const argumentSets: unknown[][] = [
      [],
      [everything],
      [{ ...everything, aliasType: '../../../../../tmp/nilvera-hostile', userType: '../x', folder: inHostile('sub') }],
      [nodeShaped, false],
      [nodeShaped, [nodeShaped]],
      ['production'],
      ['test'],
      [vscode.Uri.file(inHostile('customers.csv'))],
      [vscode.Uri.file(inHostile('design.xslt'))],
    ];
    // "Try the Sandbox" switches this window to a local stand-in by design (no account, no key of the
    // user's); it would take the window off the sandbox this test watches. "Clear API Key" only asks
    // (modal) and hands nothing out: it runs last, once everything else was checked.
    const skipped = new Set(['nilvera.sandbox.start', 'nilvera.apiKey.clear']);
    const ids = (await vscode.commands.getCommands(true)).filter((id) => id.startsWith('nilvera.') && !skipped.has(id)).sort();
    assert.ok(ids.length > 60, `only ${ids.length} nilvera commands are registered`);

    const leaks: string[] = [];
    const hung: string[] = [];
    const restore = api.testing.actAsProduction();
    try {
      for (const id of ids) {
        for (const args of argumentSets) {
          const outcome = await withTimeout(vscode.commands.executeCommand<unknown>(id, ...args), 20_000);
          if (outcome.timedOut) hung.push(`${id}(${args.length} args)`);
          for (const leak of findLeaks(outcome.value, key)) leaks.push(`${id}: ${leak}`);
          if (outcome.error !== undefined) for (const leak of findLeaks(String(outcome.error), key)) leaks.push(`${id} (error): ${leak}`);
        }
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      }
    } finally {
      restore();
    }
    assert.deepEqual(leaks, [], 'an answer handed out the key or something callable');
    assert.deepEqual(hung, [], 'commands still waiting after 20 s (a question not asked through the prompt seam?)');

    // Nothing changed on the account: no write reached the sandbox and its state is the same.
    const READS_BY_POST = /^\/general\/GlobalCompany\/GetGlobalCustomerInfo$/i;
    const writes = sandbox.requestLog().filter((r) => r.method !== 'GET' && r.method !== 'HEAD' && !READS_BY_POST.test(r.path));
    assert.deepEqual(writes.map((r) => `${r.method} ${r.path} ${r.status}`), [], 'requests that change the account were sent');
    const { inFlight: _a, behaviour: _b, ...before } = stateBefore;
    const { inFlight: _c, behaviour: _d, ...after } = await sandboxState(sandbox);
    assert.deepEqual(after, before, 'the sandbox account changed');
    // Nothing written where the caller said, the key, settings and profile as they were.
    assert.deepEqual(filesUnder(hostile), filesBefore, 'files appeared in the folder the caller chose');
    assert.equal(await services.keys.get(secretName), key);
    assert.deepEqual({ environment: config().get(Settings.environment), customUrl: config().get(Settings.customUrl) }, settingsBefore);
    assert.equal(services.activeProfile().id, profileBefore, 'the window was switched to another profile');
    // The commands did run: they asked (every question declined) rather than failing before they reached the user.
    assert.ok(prompts.asked.length > 30, `only ${prompts.asked.length} questions were asked`);

    const clearOutcome = await withTimeout(vscode.commands.executeCommand<unknown>('nilvera.apiKey.clear', everything), 20_000);
    assert.deepEqual(findLeaks(clearOutcome.value, key), []);
    // Run by another extension, "Clear API Key" only asks: the user declined, the key is still there.
    assert.equal(await services.keys.get(secretName), key, 'another extension removed the key without the user');
  });
});
