// Reliability: a canary API key must never leave SecretStorage. The key goes in through "Set API
// Key"; then every contributed command runs (palette style, and on the tree nodes its menus target),
// every tree is expanded two levels deep, every form is opened, and 401 / 403 / network / timeout
// errors are provoked. Afterwards the canary (plain, base64, "Bearer …") is searched for in logs,
// settings, global and workspace state, everything the prompts showed, webview HTML and posted state,
// the documents opened, the clipboard, the files the extension wrote and the error objects.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { inspect } from 'node:util';
import * as vscode from 'vscode';
import { createClient } from '../../src/api';
import { Commands, EXTENSION_ID, FormCommands, Settings } from '../../src/constants';
import type { NilveraExtensionApi } from '../../src/extension';
import type { MessageLevel, Prompts, SearchPickOptions } from '../../src/shell/prompts';
import type { HostMessage } from '../../src/webviews/protocol';
import type { NilveraTrees } from '../../src/views/trees';
import type { TreeNode } from '../../src/views/treeNode';
import { activateExtension } from '../support/extension';
import { freePort } from '../support/freePort';
import { startTestSandbox, type SandboxHandle } from '../support/sandbox';
import { leaveCustomEnvironment } from '../support/sandboxSuite';
import { suiteLog } from './report';
import { waitFor } from '../support/waitFor';
import { clearCustomersFilter, extensionTrees } from './treeWalk';

const COMMAND_TIME_LIMIT_MS = 30_000;
/** Answers per command before every further prompt is dismissed (guards against prompt loops). */
const PROMPT_BUDGET = 40;

/** Commands not run on their tree node, with the reason (they are still run from the palette). */
const SKIPPED_ON_NODE: Record<string, string> = {
  'nilvera.account.openCampaign': 'opens an external web page (vscode.env.openExternal), which a headless run cannot follow',
};

interface PanelInfo {
  viewType: string;
  recordKey: string;
  title: string;
  html: string;
}

/** One place a text came from, and the text. */
interface Sample {
  where: string;
  text: string;
}

/** The needles for one secret: the key, its random part, its base64 forms and its header form. */
function needlesFor(secret: string): string[] {
  const needles = new Set<string>([secret, `Bearer ${secret}`, secret.replace(/^canary-[a-z]-/, '')]);
  // The key inside a longer base64 text starts at one of three byte alignments; each gives a stable
  // core (the first and last characters depend on the neighbouring bytes, so they are left off).
  for (const shift of [0, 1, 2]) {
    for (const plain of [secret, `Bearer ${secret}`]) {
      const encoded = Buffer.concat([Buffer.alloc(shift), Buffer.from(plain)]).toString('base64');
      const core = encoded.slice(Math.ceil((shift * 4) / 3) + 1, -4);
      needles.add(core);
      needles.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return [...needles].filter((n) => n.length >= 16);
}

function filesUnder(dir: string | undefined): string[] {
  if (!dir || !fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : e.isFile() ? [p] : [];
  });
}

function errorTexts(error: unknown): string {
  const e = error as { message?: unknown; stack?: unknown };
  return [String(error), String(e?.message ?? ''), String(e?.stack ?? ''), inspect(error, { depth: 6, showHidden: true }), JSON.stringify(error) ?? ''].join('\n');
}

/**
 * Answers every prompt the extension shows with something plausible and records every text shown.
 * The API key box gets `apiKey`; other boxes the first candidate their own validation accepts;
 * quick picks their first item (environments: only the Custom URL pointing at the test sandbox);
 * confirmations their first action; error messages are dismissed (so "Retry" cannot loop).
 */
class AnsweringPrompts implements Prompts {
  readonly shown: Sample[] = [];
  apiKey: string;
  answered = 0;

  constructor(
    apiKey: string,
    private readonly candidates: () => string[],
    private readonly fileFor: (extensions: string[]) => string,
    private readonly tmp: string,
  ) {
    this.apiKey = apiKey;
  }

  private record(where: string, value: unknown): void {
    this.shown.push({ where: `prompt ${where}`, text: typeof value === 'string' ? value : JSON.stringify(value, (_k, v: unknown) => (typeof v === 'function' ? undefined : v)) });
  }

  private spend(): boolean {
    this.answered++;
    return this.answered <= PROMPT_BUDGET;
  }

  async inputBox(options: vscode.InputBoxOptions): Promise<string | undefined> {
    this.record('input box', options);
    if (!this.spend()) return undefined;
    const isKeyBox = options.password === true && /api/i.test(`${options.title ?? ''} ${options.prompt ?? ''}`);
    const candidates = isKeyBox ? [this.apiKey] : options.password ? ['Gizli-Parola-123'] : [options.value ?? '', ...this.candidates()].filter((c) => c !== '');
    for (const value of candidates) {
      const problem = await options.validateInput?.(value);
      const text = typeof problem === 'string' ? problem : problem?.message;
      if (text) this.record('input box refusal', text);
      else return value;
    }
    return undefined;
  }

  async quickPick<T extends vscode.QuickPickItem>(items: readonly T[], options?: vscode.QuickPickOptions): Promise<T | undefined> {
    this.record('quick pick', { options, items });
    if (!this.spend()) return undefined;
    const withEnvironment = items.filter((i) => typeof (i as { environment?: unknown }).environment === 'string');
    // The canary may only ever travel to the test sandbox, never to a real host.
    if (withEnvironment.length > 0) return withEnvironment.find((i) => (i as { environment?: unknown }).environment === 'custom');
    return items.find((i) => i.kind !== vscode.QuickPickItemKind.Separator);
  }

  async message(level: MessageLevel, text: string, options?: { modal?: boolean; detail?: string }, ...actions: string[]): Promise<string | undefined> {
    this.record(`${level} message`, { text, detail: options?.detail, actions });
    if (!this.spend() || level === 'error') return undefined;
    return actions[0];
  }

  async openDialog(options: vscode.OpenDialogOptions): Promise<vscode.Uri[] | undefined> {
    this.record('open dialog', options);
    if (!this.spend()) return undefined;
    if (options.canSelectFolders) {
      const folder = fs.mkdtempSync(path.join(this.tmp, 'folder-'));
      return [vscode.Uri.file(folder)];
    }
    const extensions = Object.values(options.filters ?? {}).flat();
    return [vscode.Uri.file(this.fileFor(extensions))];
  }

  async saveDialog(options: vscode.SaveDialogOptions): Promise<vscode.Uri | undefined> {
    this.record('save dialog', options);
    if (!this.spend()) return undefined;
    const extension = Object.values(options.filters ?? {}).flat()[0] ?? 'txt';
    const name = options.defaultUri ? path.basename(options.defaultUri.fsPath) : `saved.${extension}`;
    return vscode.Uri.file(path.join(fs.mkdtempSync(path.join(this.tmp, 'save-')), name));
  }

  async searchPick<T extends vscode.QuickPickItem>(options: SearchPickOptions<T>): Promise<T | undefined> {
    this.record('search pick', { title: options.title, placeholder: options.placeholder });
    if (!this.spend()) return undefined;
    const items = await options.search(this.candidates()[1] ?? 'a', new AbortController().signal);
    this.record('search pick items', items);
    return items[0];
  }
}

interface ItemMenu {
  command: string;
  view: string;
  viewItem: string;
  many: boolean;
}

/** The `view/item/context` menu entries: which command runs on which kind of tree node. */
function itemMenus(packageJson: { contributes: { menus?: Record<string, Array<{ command: string; when?: string }>> } }): ItemMenu[] {
  const seen = new Set<string>();
  const out: ItemMenu[] = [];
  for (const entry of packageJson.contributes.menus?.['view/item/context'] ?? []) {
    const view = /\bview == ([\w.]+)/.exec(entry.when ?? '')?.[1];
    const viewItem = /\bviewItem == ([\w.]+)/.exec(entry.when ?? '')?.[1];
    if (!view || !viewItem || seen.has(`${entry.command}|${viewItem}`)) continue;
    seen.add(`${entry.command}|${viewItem}`);
    out.push({ command: entry.command, view, viewItem, many: /(?<!!)listMultiSelection/.test(entry.when ?? '') });
  }
  return out;
}

suite('Reliability: secrets', function () {
  this.timeout(600_000);
  const hex = () => randomBytes(24).toString('hex');
  const canary = `canary-k-${hex()}`;
  const restrictedCanary = `canary-r-${hex()}`;
  const wrongCanary = `canary-w-${hex()}`;
  const secrets = [canary, restrictedCanary, wrongCanary];

  let api: NilveraExtensionApi;
  let context: vscode.ExtensionContext;
  let sandbox: SandboxHandle;
  let trees: NilveraTrees;
  let tmp: string;
  let prompts: AnsweringPrompts;
  let restorePrompts: () => void = () => undefined;
  let validVkn = '';
  const samples: Sample[] = [];
  const counts = { commandsRun: 0, commandsWithEffect: 0, commandRuns: 0, nodeCommandRuns: 0, views: 0, nodes: 0, forms: 0, errorScenarios: 0, errorObjects: 0 };
  const skipped: Array<{ command: string; reason: string }> = [];
  const timedOut: string[] = [];
  /** Per palette command: API requests it made and prompts it showed (to list the ones that did nothing). */
  const activity = new Map<string, { effects: number }>();
  const writtenFiles = new Set<string>();
  const scenarioTimes: string[] = [];

  const config = () => vscode.workspace.getConfiguration(Settings.section);
  const packageJson = () => vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { contributes: { commands: Array<{ command: string }>; configuration: { properties: Record<string, unknown> }; menus?: Record<string, Array<{ command: string; when?: string }>> } };

  /** Points the extension at the test sandbox (Custom URL on loopback) with `key` stored for it. */
  async function useSandbox(key: string | undefined, url = sandbox.url): Promise<void> {
    await config().update(Settings.customUrl, url, vscode.ConfigurationTarget.Global);
    await config().update(Settings.environment, 'custom', vscode.ConfigurationTarget.Global);
    const { services } = api.testing;
    if (key === undefined) await services.keys.delete(services.secretName('custom'));
    else await services.keys.store(services.secretName('custom'), key);
    await api.testing.state.refresh();
  }

  /** After a command that switched environment (e.g. "Try the Sandbox"), goes back to the test sandbox. */
  async function backToSandbox(): Promise<void> {
    const { services } = api.testing;
    if (services.environment() !== 'custom' || services.customBaseUrl() !== sandbox.url || (await services.apiKey('custom')) !== canary) await useSandbox(canary);
  }

  function fileFor(extensions: string[]): string {
    const ext = extensions[0] ?? 'pdf';
    const file = path.join(fs.mkdtempSync(path.join(tmp, 'open-')), `input.${ext}`);
    const content: Record<string, string> = {
      csv: `Name;TaxNumber;City\nKanarya Test A.Ş.;${validVkn};Ankara\nHatalı Satır;1234567890;İzmir\n`,
      json: JSON.stringify([{ Name: 'Kanarya Test A.Ş.', TaxNumber: validVkn }]),
      txt: `${validVkn}\n1234567890\n`,
      tsv: `${validVkn}\n`,
      xslt: '<?xml version="1.0"?><xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"/>',
    };
    fs.writeFileSync(file, content[ext] ?? '%PDF-1.4\n% test document\n');
    return file;
  }

  /** Runs a command with a time limit; returns false when it did not settle in time. */
  /** What a command can change that a user sees: requests, prompts, editor tabs, the clipboard. */
  async function effectsProbe(): Promise<string> {
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label)).join('|');
    return `${sandbox.requestLog().length}/${prompts.shown.length}/${tabs}/${await vscode.env.clipboard.readText()}`;
  }

  async function run(command: string, ...args: unknown[]): Promise<boolean> {
    const before = await effectsProbe();
    try {
      return await runLimited(command, ...args);
    } finally {
      const changed = (await effectsProbe()) !== before ? 1 : 0;
      activity.set(command, { effects: (activity.get(command)?.effects ?? 0) + changed });
    }
  }

  async function runLimited(command: string, ...args: unknown[]): Promise<boolean> {
    prompts.answered = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), COMMAND_TIME_LIMIT_MS)));
    const result = await Promise.race([
      Promise.resolve(vscode.commands.executeCommand(command, ...args)).then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      limit,
    ]);
    clearTimeout(timer);
    if (result === 'timeout') {
      timedOut.push(command);
      return false;
    }
    // Commands go through the shell's wrapper, which turns failures into messages; anything that
    // still escapes is an error object a user could see in a notification.
    if ('error' in result) samples.push({ where: `error thrown by ${command}`, text: errorTexts(result.error) });
    else if (result.value !== undefined) samples.push({ where: `result of ${command}`, text: inspect(result.value, { depth: 4 }) });
    return true;
  }

  /** Every node of the five trees, two levels deep, recorded as shown (label, description, tooltip). */
  async function expandTrees(): Promise<Map<string, TreeNode[]>> {
    const byView = new Map<string, TreeNode[]>();
    for (const provider of [trees.customers, trees.documents, trees.certificates, trees.identifications, trees.account]) {
      provider.refresh();
      const nodes: TreeNode[] = [];
      for (const top of await provider.getChildren()) {
        nodes.push(top);
        nodes.push(...(await provider.getChildren(top)));
      }
      for (const node of nodes) {
        const item = node.treeItem();
        const tooltip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : item.tooltip;
        samples.push({ where: `tree ${provider.viewId} node ${node.id}`, text: JSON.stringify({ id: node.id, label: item.label, description: item.description, tooltip, contextValue: item.contextValue, command: item.command?.command }) });
      }
      byView.set(provider.viewId, nodes);
    }
    return byView;
  }

  /** Every open form: its HTML and the state the host posts to the page on start-up. */
  async function collectForms(): Promise<number> {
    const open = (await vscode.commands.executeCommand<PanelInfo[]>(FormCommands.inspect)) ?? [];
    for (const panel of open) {
      samples.push({ where: `webview HTML of ${panel.recordKey}`, text: `${panel.title}\n${panel.html}` });
      const posted = await vscode.commands.executeCommand<HostMessage[] | undefined>(FormCommands.simulate, panel.recordKey, { type: 'ready' });
      samples.push({ where: `state posted to ${panel.recordKey}`, text: JSON.stringify(posted ?? []) });
    }
    return open.length;
  }

  /** Commands a user reaches while the key is wrong, restricted, unreachable or slow. */
  async function probeCommands(scenario: string, expected: RegExp): Promise<void> {
    counts.errorScenarios++;
    const started = Date.now();
    const shownBefore = prompts.shown.length;
    await expandTrees();
    for (const command of [Commands.creditsRefresh, FormCommands.company, FormCommands.settings, 'nilvera.customers.findByTaxNumber', 'nilvera.registry.checkTaxNumber', 'nilvera.identifications.add', 'nilvera.documents.add']) {
      await run(command);
    }
    await collectForms();
    // A save from the customer form: a write, which the restricted key may not make.
    await run(FormCommands.customer);
    const answers = await vscode.commands.executeCommand<HostMessage[] | undefined>(FormCommands.simulate, 'customer:new', {
      type: 'save',
      requestId: 1,
      values: { Name: `Kanarya ${scenario}`, TaxNumber: validVkn, City: 'Ankara' },
    });
    samples.push({ where: `form answer (${scenario})`, text: JSON.stringify(answers ?? []) });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The scenario really happened: the user was told about it (in a message or the form's answer).
    const told = [...prompts.shown.slice(shownBefore).map((p) => p.text), JSON.stringify(answers ?? [])];
    assert.ok(told.some((t) => expected.test(t)), `${scenario}: no message matched ${expected}`);
    scenarioTimes.push(`${scenario} ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }

  /** The API client's own error for a request made with `key`. */
  async function clientError(what: string, options: Parameters<typeof createClient>[0]): Promise<void> {
    const client = createClient({ retry: { retries: 0 }, ...options });
    const error = await client.company.get().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error, `${what}: the request succeeded`);
    counts.errorObjects++;
    samples.push({ where: `error object (${what})`, text: errorTexts(error) });
  }

  suiteSetup(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-secrets-'));
    sandbox = await startTestSandbox({ key: canary, restrictedKey: restrictedCanary, customers: 60, registry: 3000, seed: 9 });
    const customers = (await (await fetch(`${sandbox.url}/general/Customers?Page=1&PageSize=1`, { headers: { Authorization: `Bearer ${canary}` } })).json()) as { Content: Array<{ TaxNumber: string }> };
    validVkn = customers.Content[0].TaxNumber;
    api = await activateExtension();
    // The context is the shell's; the suite reads its globalState, workspaceState and storage folders.
    context = (api.testing.services as unknown as { context: vscode.ExtensionContext }).context;
    assert.ok(context?.globalState, 'the extension context is not reachable through testing.services');
    trees = await extensionTrees();
    prompts = new AnsweringPrompts(canary, () => [validVkn, sandbox.url, '2026-01-01', 'Deneme 1', '10'], fileFor, tmp);
    restorePrompts = api.testing.replacePrompts(prompts);
    await useSandbox(undefined);
  });

  suiteTeardown(async () => {
    restorePrompts();
    // Running every command left a search and a sort on the customers view: later suites expect none.
    clearCustomersFilter(trees);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const { services } = api.testing;
    await services.keys.delete(services.secretName('sandbox'));
    await services.sandbox.stop();
    await leaveCustomEnvironment(api, Settings.requestTimeoutSeconds);
    await sandbox.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('the canary goes in through "Set API Key" and is checked against the sandbox', async () => {
    await run(Commands.apiKeySet);
    assert.equal(await api.testing.services.apiKey('custom'), canary);
    assert.ok(sandbox.requestLog().some((r) => /\/general\/company$/i.test(r.path) && r.status === 200), 'the key was not checked with GET /Company');
  });

  test('every contributed command runs, palette style and on the tree nodes its menus target', async () => {
    const contributed = packageJson().contributes.commands.map((c) => c.command);
    // "Clear API Key" last: it removes the canary, which the "Set API Key" run puts back.
    const order = [...contributed.filter((c) => c !== Commands.apiKeyClear), Commands.apiKeyClear, Commands.apiKeySet];
    for (const command of order) {
      assert.notEqual(api.testing.services.environment(), 'production', 'refusing to run with the Production environment');
      await run(command);
      counts.commandRuns++;
      if (command !== Commands.apiKeyClear) await backToSandbox();
    }
    counts.commandsRun = new Set(order).size;
    assert.equal(await api.testing.services.apiKey('custom'), canary);

    // On tree nodes: each menu entry on the first node of its kind (the tree is reloaded first, as
    // a delete or a switch changes it), then each distinct click command of a node.
    for (const menu of itemMenus(packageJson())) {
      if (SKIPPED_ON_NODE[menu.command]) {
        skipped.push({ command: `${menu.command} (on a ${menu.viewItem} node)`, reason: SKIPPED_ON_NODE[menu.command] });
        continue;
      }
      const node = (await expandTrees()).get(menu.view)?.find((n) => n.treeItem().contextValue === menu.viewItem);
      if (!node) {
        skipped.push({ command: `${menu.command} (on a ${menu.viewItem} node)`, reason: `the sandbox data gave no ${menu.viewItem} node` });
        continue;
      }
      await (menu.many ? run(menu.command, node, [node]) : run(menu.command, node));
      counts.nodeCommandRuns++;
      await backToSandbox();
    }
    const clicked = new Set<string>();
    for (const nodes of (await expandTrees()).values()) {
      for (const node of nodes) {
        const click = node.treeItem().command;
        if (!click || clicked.has(click.command)) continue;
        clicked.add(click.command);
        if (SKIPPED_ON_NODE[click.command]) {
          skipped.push({ command: `${click.command} (node click)`, reason: SKIPPED_ON_NODE[click.command] });
          continue;
        }
        await run(click.command, ...(click.arguments ?? []));
        counts.nodeCommandRuns++;
        await backToSandbox();
      }
    }
    assert.ok(counts.nodeCommandRuns >= 10, `only ${counts.nodeCommandRuns} commands ran on tree nodes`);
    // Coverage, not just invocation: commands must have done something visible. Some legitimately
    // show nothing measurable (a refresh of a hidden view, a form whose page loads afterwards), so the
    // bar is half; a broken prompt seam or environment leaves nearly all of them idle.
    const busy = contributed.filter((c) => activity.get(c)?.effects);
    assert.ok(busy.length >= contributed.length * 0.5, `only ${busy.length} of ${contributed.length} commands had an effect`);
    counts.commandsWithEffect = busy.length;
  });

  test('every view is expanded two levels deep and every form is opened', async () => {
    await backToSandbox();
    const byView = await expandTrees();
    counts.views = byView.size;
    counts.nodes = [...byView.values()].reduce((n, nodes) => n + nodes.length, 0);
    assert.equal(counts.views, 5);
    for (const [view, nodes] of byView) assert.ok(nodes.length > 0, `${view} showed nothing`);
    for (const command of [FormCommands.company, FormCommands.settings, FormCommands.customer, FormCommands.certificate]) await run(command);
    const customerNode = byView.get('nilvera.customers')?.find((n) => n.treeItem().contextValue === 'customer');
    if (customerNode) await run('nilvera.customers.edit', customerNode);
    counts.forms = await collectForms();
    assert.ok(counts.forms >= 4, `only ${counts.forms} forms were open`);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('401, 403, network failure and timeout: the extension and the client report them without the key', async () => {
    // 401: a wrong key (itself a canary) stored for the sandbox.
    await useSandbox(wrongCanary);
    await probeCommands('401', /HTTP 401/);
    await clientError('401', { baseUrl: sandbox.url, getApiKey: async () => wrongCanary });
    assert.ok(sandbox.requestLog().some((r) => r.status === 401), 'no request was refused with 401');

    // 403: the restricted key may read but not write.
    await useSandbox(restrictedCanary);
    await probeCommands('403', /HTTP 403/);
    const restricted = createClient({ baseUrl: sandbox.url, getApiKey: async () => restrictedCanary, retry: { retries: 0 } });
    const forbidden = await restricted.identifications.create('MERSISNO' as never, '0123456789012345').then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(forbidden, 'the restricted key was allowed to write');
    counts.errorObjects++;
    samples.push({ where: 'error object (403)', text: errorTexts(forbidden) });
    assert.ok(sandbox.requestLog().some((r) => r.status === 403), 'no request was refused with 403');

    // Network failure: nothing listens on the custom URL's port.
    const closed = `http://127.0.0.1:${await freePort()}`;
    await useSandbox(canary, closed);
    await probeCommands('network', /could not be reached/);
    await clientError('network', { baseUrl: closed, getApiKey: async () => canary });

    // Timeout: the sandbox answers after the 1 s request timeout.
    await useSandbox(canary);
    await config().update(Settings.requestTimeoutSeconds, 1, vscode.ConfigurationTarget.Global);
    sandbox.setFaults({ latencyMs: 1500 });
    try {
      await probeCommands('timeout', /did not answer in time/);
      await clientError('timeout', { baseUrl: sandbox.url, getApiKey: async () => canary, timeoutMs: 300 });
    } finally {
      sandbox.clearFaults();
      await config().update(Settings.requestTimeoutSeconds, undefined, vscode.ConfigurationTarget.Global);
    }
    await useSandbox(canary);
  });

  test('the canary appears nowhere the extension wrote or showed anything', async () => {
    // Log lines reach the disk shortly after they are written.
    const logRoot = path.resolve(context.logUri.fsPath, '..', '..');
    await waitFor(() => filesUnder(logRoot).some((f) => /\/general\/Company 401/.test(fs.readFileSync(f, 'utf8'))), 'the request log on disk');
    await new Promise((r) => setTimeout(r, 2000));

    const files = new Set<string>([...filesUnder(logRoot), ...filesUnder(context.logUri.fsPath), ...filesUnder(context.globalStorageUri.fsPath), ...filesUnder(context.storageUri?.fsPath), ...filesUnder(tmp)]);
    // settings.json of every scope on disk: user (beside globalStorage), machine, workspace folders.
    const userDir = path.resolve(context.globalStorageUri.fsPath, '..', '..');
    for (const candidate of [path.join(userDir, 'settings.json'), path.resolve(userDir, '..', 'Machine', 'settings.json')]) if (fs.existsSync(candidate)) files.add(candidate);
    for (const folder of vscode.workspace.workspaceFolders ?? []) for (const f of filesUnder(path.join(folder.uri.fsPath, '.vscode'))) files.add(f);
    for (const f of files) writtenFiles.add(f);

    const texts: Sample[] = [...samples, ...prompts.shown];
    for (const name of Object.keys(packageJson().contributes.configuration.properties)) {
      texts.push({ where: `setting ${name} (every scope)`, text: JSON.stringify(vscode.workspace.getConfiguration().inspect(name)) });
    }
    texts.push({ where: 'settings section nilvera', text: JSON.stringify(config()) });
    for (const [label, memento] of [['globalState', context.globalState], ['workspaceState', context.workspaceState]] as const) {
      for (const key of memento.keys()) texts.push({ where: `${label} ${key}`, text: `${key}\n${JSON.stringify(memento.get(key))}` });
    }
    texts.push({ where: 'status bar', text: JSON.stringify(api.testing.statusBar().snapshot()) });
    for (const doc of vscode.workspace.textDocuments) texts.push({ where: `open document ${doc.uri.toString()}`, text: doc.getText() });
    texts.push({ where: 'clipboard', text: await vscode.env.clipboard.readText() });

    const needles = secrets.flatMap(needlesFor);
    // The search must be able to fail: the key inside base64 at every alignment, in a header, in UTF-16.
    const matches = (text: string | Buffer) => needles.some((n) => text.includes(n));
    for (const prefix of ['', 'x', 'xy']) assert.ok(matches(Buffer.from(`${prefix}Authorization: Bearer ${canary};`).toString('base64')), `base64 control (shift ${prefix.length})`);
    assert.ok(matches(Buffer.from(`{"key":"${restrictedCanary}"}`).toString('base64url')), 'base64url control');
    assert.ok(matches(`Bearer ${wrongCanary.slice('canary-w-'.length)}`), 'random-part control');
    const utf16 = Buffer.from(`x${canary}`, 'utf16le');
    assert.ok(needles.some((n) => utf16.includes(Buffer.from(n, 'utf16le'))), 'UTF-16 control');

    const found: string[] = [];
    for (const sample of texts) if (needles.some((n) => sample.text.includes(n))) found.push(sample.where);
    for (const file of writtenFiles) {
      const bytes = fs.readFileSync(file);
      if (needles.some((n) => bytes.includes(n) || bytes.includes(Buffer.from(n, 'utf16le')))) found.push(`file ${file}`);
    }

    suiteLog(
      `      canary search: ${counts.commandsRun} commands (${counts.commandRuns} palette runs, ${counts.nodeCommandRuns} on tree nodes, ${counts.commandsWithEffect} with a visible effect), ` +
        `${counts.views} views / ${counts.nodes} nodes, ${counts.forms} forms, ${counts.errorScenarios} error scenarios + ${counts.errorObjects} error objects, ` +
        `${writtenFiles.size} files, ${texts.length} texts, ${needles.length} needles: ${found.length} finding(s)`,
    );
    suiteLog(`      error scenarios: ${scenarioTimes.join(', ')}`);
    for (const s of skipped) suiteLog(`      skipped: ${s.command}: ${s.reason}`);
    const idle = [...activity].filter(([, a]) => a.effects === 0).map(([c]) => c);
    suiteLog(`      commands without a visible effect in any run (no request, prompt, tab or clipboard change): ${idle.join(', ') || 'none'}`);
    for (const c of timedOut) suiteLog(`      over the ${COMMAND_TIME_LIMIT_MS / 1000} s limit: ${c}`);
    assert.ok(writtenFiles.size > 0 && texts.length > 100, 'the search found too little to search');
    assert.deepEqual(found, [], 'the canary key appeared in these places');
  });
});
