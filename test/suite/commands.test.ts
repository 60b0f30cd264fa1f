// Palette commands in a real extension host against an in-process sandbox (Custom URL environment):
// registry checks and lookups, bulk check from a file, list download (cancelled and completed) with
// offline search, template/series/mailing/tax-office changes. Every change is checked in the sandbox.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PaletteCommands } from '../../src/constants';
import type { NilveraExtensionApi } from '../../src/extension';
import { replacePrompts as replaceLocalPrompts } from '../../src/shell/prompts';
import type { BulkCheckResult } from '../../src/commands/registry/bulkCheck';
import type { OfflineSearchOutcome } from '../../src/commands/registry/offlineRegistry';
import type { DownloadedIndex } from '../../src/registry';
import type { RegistryDetail } from '../../src/commands/registry/registryDetail';
import { addAsCustomer } from '../../src/commands/registry/customerActions';
import { RegistryDetailProvider, renderDetail } from '../../src/commands/registry/detailDocument';
import { completeVkn } from '../../src/domain/taxId';
import { ScriptedPrompts, type PickChooser } from '../support/scriptedPrompts';
import type { SandboxHandle } from '../support/sandbox';
import { startSandboxSuite } from '../support/sandboxSuite';

const byDescription = (d: string): PickChooser => (items) => items.find((i) => i.description === d);
const byLabel = (re: RegExp): PickChooser => (items) => items.find((i) => re.test(i.label));

interface SandboxState {
  templates: Array<{ ID: number; Name: string; IsActive: boolean; IsDefault: boolean; FileSize: number }>;
  series: Array<{ ID: number; Name: string; IsActive: boolean; IsDefault: boolean }>;
  mailing: Array<{ ModuleID: string; IsActive: boolean }>;
  taxOffice: { UserName: string; Password: string };
}

interface RegistryRow {
  TaxNumber: string;
  Title: string;
  Aliases: Array<{ Name: string; DeletionTime: string | null }>;
}

suite('Palette commands', function () {
  this.timeout(120_000);
  let sandbox: SandboxHandle;
  let api: NilveraExtensionApi;
  const prompts = new ScriptedPrompts();
  let close: () => Promise<void> = async () => undefined;
  let restoreLocal: () => void = () => undefined;
  let tmp: string;
  let registered: RegistryRow[] = [];
  let unregistered = '';

  async function sandboxApi<T>(method: string, apiPath: string): Promise<{ status: number; body: T }> {
    const res = await fetch(sandbox.url + apiPath, { method, headers: { Authorization: `Bearer ${sandbox.keys.full}`, Accept: 'application/json' } });
    return { status: res.status, body: (await res.json()) as T };
  }
  async function state(): Promise<SandboxState> {
    return (await (await fetch(`${sandbox.url}/__sandbox/state`)).json()) as SandboxState;
  }
  const requests = (re: RegExp) => sandbox.requestLog().filter((r) => re.test(`${r.method} ${r.path}`));
  const exec = <T>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
  const lastMessage = () => prompts.messages[prompts.messages.length - 1];

  suiteSetup(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-commands-'));
    // Large enough that the list download takes a while (it is cancelled halfway below).
    ({ sandbox, api, close } = await startSandboxSuite({ customers: 50, registry: 300_000, seed: 5 }, prompts));
    restoreLocal = replaceLocalPrompts(prompts);
    registered = (await sandboxApi<{ Content: RegistryRow[] }>('GET', '/general/GlobalCompany?Page=2&PageSize=30')).body.Content;
    for (let i = 1; !unregistered; i++) {
      const candidate = completeVkn(String(987650000 + i));
      const rows = await sandboxApi<unknown[]>('GET', `/general/GlobalCompany/Check/TaxNumber/${candidate}?globalUserType=Invoice`);
      if (rows.status === 200 && rows.body.length === 0) unregistered = candidate;
    }
  });

  suiteTeardown(async () => {
    restoreLocal();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  setup(() => {
    prompts.reset();
    sandbox.clearFaults();
    sandbox.resetRequestLog();
  });

  test('a wrong check digit is refused as it is typed and never reaches the server', async () => {
    const good = registered[0].TaxNumber;
    const bad = good.slice(0, 9) + String((Number(good[9]) + 1) % 10);
    prompts.inputs = [bad];
    await exec(PaletteCommands.registryCheckTaxNumber);
    assert.equal(prompts.refused.length, 1);
    assert.equal(prompts.refused[0], `Invalid VKN ${bad}: the 10th digit should be ${good[9]} for these first nine digits.`);
    // Passed as an argument, the same number is reported as an error, still without a call.
    await exec(PaletteCommands.registryCheckTaxNumber, bad);
    assert.equal(lastMessage().level, 'error');
    assert.match(lastMessage().text, /the 10th digit should be/);
    assert.deepEqual(requests(/GlobalCompany/i), []);
  });

  test('a registered number opens the detail with every alias marked PK/GB and active; the user type is remembered', async () => {
    // A taxpayer registered for despatch advices too.
    let row: RegistryRow | undefined;
    for (const r of registered.slice(1)) {
      const rows = await sandboxApi<unknown[]>('GET', `/general/GlobalCompany/Check/TaxNumber/${r.TaxNumber}?globalUserType=DespatchAdvice`);
      if (rows.body.length > 0) {
        row = r;
        break;
      }
    }
    assert.ok(row, 'no e-despatch user on the page');
    sandbox.resetRequestLog();
    prompts.inputs = [row.TaxNumber];
    prompts.picks = [byDescription('DespatchAdvice')];
    const detail = await exec<RegistryDetail>(PaletteCommands.registryCheckTaxNumber);
    assert.ok(detail, 'no detail returned');
    const check = (await sandboxApi<Array<{ Name: string; Title: string }>>('GET', `/general/GlobalCompany/Check/TaxNumber/${row.TaxNumber}?globalUserType=DespatchAdvice`)).body;
    assert.ok(check.length > 0);
    assert.deepEqual(detail.aliases.map((a) => a.name).sort(), check.map((c) => c.Name).sort());
    const doc = vscode.window.activeTextEditor?.document;
    assert.equal(doc?.uri.scheme, 'nilvera-registry');
    const text = doc.getText();
    assert.ok(text.includes(row.Title), 'the document lacks the title');
    for (const c of check) assert.match(text, new RegExp(`\`${c.Name.replace(/[.]/g, '\\.')}\` \\| (PK|GB) \\|.*\\| active \\|`));
    const announced = prompts.messages.find((m) => m.level === 'info' && m.text.includes(row.Title) && m.actions.length === 2);
    assert.ok(announced, JSON.stringify(prompts.messages));
    // English counts one alias in the singular.
    assert.ok(announced.text.endsWith(check.length === 1 ? '(1 alias).' : `(${check.length} aliases).`), announced.text);
    assert.equal(requests(/check\/taxnumber/i).length, 2, 'the command and this test each made one call');
    // Next time DespatchAdvice is offered first.
    prompts.reset();
    prompts.inputs = [row.TaxNumber];
    prompts.picks = [(items) => items[0]];
    await exec(PaletteCommands.registryCheckTaxNumber);
    assert.equal(prompts.offered[0][0].description, 'DespatchAdvice');
  });

  test('an unregistered number is said plainly', async () => {
    await exec(PaletteCommands.registryCheckTaxNumber, { taxNumber: unregistered, userType: 'Invoice' });
    assert.equal(lastMessage().level, 'info');
    assert.match(lastMessage().text, new RegExp(`${unregistered} is not registered`));
    assert.equal(requests(/check\/taxnumber/i)[0]?.status, 200);
  });

  test('a name search leads to the detail, and "Add as Customer" opens the prefilled form or creates the customer', async () => {
    let row: RegistryRow | undefined;
    for (const r of registered.slice(2)) {
      const existing = await sandboxApi<{ TotalCount: number }>('GET', `/general/Customers?Search=${r.TaxNumber}`);
      // No customer matches: an empty page, or (emptyList, the sandbox's default) a 404.
      if (existing.status === 404 || existing.body.TotalCount === 0) {
        row = r;
        break;
      }
    }
    assert.ok(row, 'every taxpayer on the page is a customer already');
    prompts.inputs = [row.Title];
    prompts.picks = [byDescription('Invoice'), byDescription(row.TaxNumber)];
    const detail = await exec<RegistryDetail>(PaletteCommands.registryCheckName);
    assert.equal(detail?.taxNumber, row.TaxNumber);
    assert.ok(prompts.offered[1].every((i) => i.description && i.label), 'results need a title and a tax number');
    const info = (await sandboxApi<RegistryRow>('GET', `/general/GlobalCompany/GetGlobalCustomerInfo/${row.TaxNumber}?globalUserType=Invoice`)).body;
    assert.deepEqual(detail.aliases.map((a) => a.name), info.Aliases.map((a) => a.Name));
    assert.deepEqual(detail.aliases.map((a) => Boolean(a.deleted)), info.Aliases.map((a) => a.DeletionTime !== null));
    // The detail document shows the registry's contact fields under their own labels, not their API names.
    const shown = renderDetail(detail);
    const contact = info as unknown as { TaxDepartment: string; City: string };
    assert.ok(shown.includes(`| Tax office | ${contact.TaxDepartment} |`), shown);
    assert.ok(shown.includes(`| City | ${contact.City} |`), shown);
    assert.ok(!shown.includes('TaxDepartment'), shown);

    // The form command exists in this build: the action hands it the prefill.
    const how = await exec<string>(PaletteCommands.registryAddAsCustomer, detail);
    assert.equal(how, 'form');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    // Without the form (called directly here), it asks and creates the customer itself.
    prompts.answers = [(actions) => actions[0]];
    const ctx = { shell: api.testing.services, extension: {} as vscode.ExtensionContext, details: new RegistryDetailProvider() };
    const direct = await addAsCustomerWithoutForm(ctx, detail);
    assert.equal(direct, 'created');
    assert.equal(prompts.messages.find((m) => m.modal)?.actions.length, 1);
    const created = (await sandboxApi<{ Content: Array<{ TaxNumber: string; Name: string }> }>('GET', `/general/Customers?Search=${row.TaxNumber}`)).body.Content;
    assert.deepEqual(created.map((c) => [c.TaxNumber, c.Name]), [[row.TaxNumber, row.Title]]);
  });

  test('search and browse reach the detail of the picked taxpayer; "Load more" fetches the next page', async () => {
    const row = registered[3];
    prompts.picks = [byDescription(row.TaxNumber)];
    const found = await exec<RegistryDetail>(PaletteCommands.registrySearch, { text: row.Title });
    assert.equal(found?.taxNumber, row.TaxNumber);
    sandbox.resetRequestLog();
    let picked: vscode.QuickPickItem | undefined;
    // The last taxpayer of the second page (the entry after it is "Load more").
    prompts.picks = [byLabel(/Load more/), (items) => (picked = items[items.length - 2])];
    const browsed = await exec<RegistryDetail>(PaletteCommands.registryBrowse);
    assert.equal(requests(/GET \/general\/GlobalCompany$/i).length, 2);
    assert.ok(prompts.offered[1].length > prompts.offered[0].length);
    assert.ok(picked?.description && !/Load more/.test(picked.label), `picked a taxpayer: ${picked?.label}`);
    assert.ok(!prompts.offered[0].some((i) => i.description === picked!.description), 'the picked taxpayer came with the second page');
    assert.equal(browsed?.taxNumber, picked.description, 'the detail is the picked taxpayer');
  });

  test('bulk check from a file: wrong checksums are listed without a call, the rest checked in batches', async () => {
    const file = path.join(tmp, 'numbers.csv');
    const good = registered.slice(5, 25).map((r) => r.TaxNumber);
    const wrongDigit = (t: string) => t.slice(0, -1) + String((Number(t[t.length - 1]) + 1) % 10);
    const bad = [wrongDigit(good[0]), wrongDigit(completeVkn('123456789')), 'ABC'];
    const lines = ['Unvan;VKN', ...good.map((t, i) => `Firma ${i};${t}`), `Yok;${unregistered}`, ...bad.map((b) => `Hatalı;${b}`)];
    fs.writeFileSync(file, lines.join('\n'));
    prompts.picks = [byLabel(/file/i), byDescription('Invoice')];
    prompts.opens = [[vscode.Uri.file(file)]];
    const result = await exec<BulkCheckResult>(PaletteCommands.registryBulkCheck);
    assert.ok(result);
    const status = new Map(result.rows.map((r) => [r.taxNumber, r.status]));
    for (const t of good) assert.equal(status.get(t), 'registered', t);
    assert.equal(status.get(unregistered), 'notRegistered');
    for (const b of bad) assert.equal(status.get(b), 'invalid', b);
    const posts = requests(/POST \/general\/GlobalCompany\/GetGlobalCustomerInfo/i);
    assert.equal(posts.length, 1, '21 valid numbers fit one batch of 50');
    const pkOf = result.rows.find((r) => r.taxNumber === good[0])?.pk ?? [];
    const info = (await sandboxApi<RegistryRow>('GET', `/general/GlobalCompany/GetGlobalCustomerInfo/${good[0]}?globalUserType=Invoice`)).body;
    const activePk = info.Aliases.filter((a) => !a.DeletionTime && /pk@/.test(a.Name)).map((a) => a.Name);
    assert.deepEqual([...pkOf].sort(), activePk.sort());
    assert.equal(result.document?.getText(), result.csv, 'the results open as a CSV document');
    assert.equal(result.document?.isUntitled, true);
    assert.equal(result.document?.lineCount, 1 + good.length + 1 + bad.length + 1);
    assert.match(lastMessage().text, /20 registered, 1 not registered, 3 invalid/);
  });

  test('a download cancelled halfway leaves no file; a completed one is searchable offline', async () => {
    const folder = path.join(tmp, 'lists');
    const cancel = new vscode.CancellationTokenSource();
    // Cancel as soon as the temporary file has bytes in it.
    const watcher = setInterval(() => {
      const part = fs.existsSync(folder) ? fs.readdirSync(folder).find((f) => f.endsWith('.part')) : undefined;
      // The file may be gone between the listing and the stat (renamed or removed): no size then.
      if (part && (fs.statSync(path.join(folder, part), { throwIfNoEntry: false })?.size ?? 0) > 0) cancel.cancel();
    }, 2);
    const cancelled = await exec<DownloadedIndex | undefined>(PaletteCommands.registryDownload, { aliasType: 'PK', userType: 'Invoice', folder, cancellation: cancel.token });
    clearInterval(watcher);
    assert.equal(cancelled, undefined);
    assert.ok(cancel.token.isCancellationRequested, 'the download ended before it could be cancelled');
    assert.deepEqual(fs.readdirSync(folder), [], 'a cancelled download must leave nothing behind');
    assert.ok(!prompts.messages.some((m) => m.level === 'error'), 'a cancel is silent');

    const outcome = await exec<DownloadedIndex>(PaletteCommands.registryDownload, { aliasType: 'PK', userType: 'Invoice', folder });
    assert.ok(outcome);
    assert.deepEqual(fs.readdirSync(folder), ['registry-PK-Invoice.zip']);
    assert.equal(fs.statSync(outcome.zipPath).size, outcome.zipBytes);
    assert.ok(outcome.meta.taxpayers > 100_000, `${outcome.meta.taxpayers} taxpayers`);
    assert.equal(outcome.streamed, true, 'the sandbox ZIP (one deflated XML entry) is indexed as it downloads');
    assert.equal(outcome.writtenIn, 'worker', 'the records and title words are written in the worker thread (dist/registryIndexWorker.js), off the extension host thread');

    // Offline: no request reaches the server.
    sandbox.resetRequestLog();
    const row = registered[4];
    const byNumber = await exec<OfflineSearchOutcome>(PaletteCommands.registrySearchOffline, { aliasType: 'PK', userType: 'Invoice', query: row.TaxNumber, noOpen: true });
    assert.equal(byNumber?.details[0]?.title, row.Title);
    assert.equal(byNumber.downloadedAt, new Date(byNumber.downloadedAt).toISOString());
    const words = row.Title.split(' ').slice(0, 2).join(' ');
    const byWords = await exec<OfflineSearchOutcome>(PaletteCommands.registrySearchOffline, { aliasType: 'PK', userType: 'Invoice', query: words.toLocaleLowerCase('tr'), noOpen: true });
    assert.ok(byWords.total >= 1);
    assert.ok(byWords.details.every((d) => d.title.toLocaleLowerCase('tr').includes(row.Title.split(' ')[0].toLocaleLowerCase('tr'))));
    assert.deepEqual(sandbox.requestLog(), [], 'offline search must not call the server');
    // Through the prompts, the single match opens as a document marked offline.
    prompts.inputs = [row.TaxNumber];
    await exec(PaletteCommands.registrySearchOffline, { aliasType: 'PK', userType: 'Invoice' });
    const doc = vscode.window.activeTextEditor?.document;
    assert.equal(doc?.uri.scheme, 'nilvera-registry');
    assert.match(doc.getText(), /Offline registry list downloaded/);
  });

  test('template: make default, rename, and file replacement (oversized and non-XSLT files refused)', async () => {
    prompts.inputs = ['2'];
    prompts.picks = [byLabel(/Make Default/)];
    await exec(PaletteCommands.settingsTemplate);
    let s = await state();
    assert.deepEqual(s.templates.map((t) => [t.ID, t.IsDefault]), [[1, false], [2, true], [3, false]]);
    // The ID is remembered: offered first next time.
    prompts.picks = [(items) => items.find((i) => i.description === 'ID 2'), byLabel(/Rename/)];
    prompts.inputs = ['Logolu Şablon 2026'];
    await exec(PaletteCommands.settingsTemplate);
    s = await state();
    assert.equal(s.templates.find((t) => t.ID === 2)?.Name, 'Logolu Şablon 2026');
    prompts.reset();
    await exec(PaletteCommands.settingsTemplate);
    assert.equal(prompts.offered[0][0].label, 'Logolu Şablon 2026', 'the renamed template is remembered with its new name');

    const big = path.join(tmp, 'big.xslt');
    fs.writeFileSync(big, '<xsl:stylesheet>' + ' '.repeat(6 * 1024 * 1024) + '</xsl:stylesheet>');
    const text = path.join(tmp, 'notes.txt');
    fs.writeFileSync(text, 'hello');
    const fake = path.join(tmp, 'fake.xslt');
    fs.writeFileSync(fake, 'PK\u0003\u0004 not xml');
    for (const [file, problem] of [[big, /at most 5 MB/], [text, /not a template/], [fake, /does not contain XML/]] as const) {
      prompts.reset();
      await exec(PaletteCommands.settingsTemplate, { id: 3, change: 'replaceFile', file, keep: 'inactive' });
      assert.equal(lastMessage().level, 'error');
      assert.match(lastMessage().text, problem);
    }
    assert.deepEqual(requests(/PUT \/ebill\/Templates/i).filter((r) => r.status === 200).length, 2, 'refused files are not sent');
    const good = path.join(tmp, 'invoice.xslt');
    fs.writeFileSync(good, '<?xml version="1.0"?><xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"/>');
    await exec(PaletteCommands.settingsTemplate, { id: 3, change: 'replaceFile', file: good, keep: 'inactive' });
    s = await state();
    assert.equal(s.templates.find((t) => t.ID === 3)?.FileSize, fs.statSync(good).size);
  });

  test('series: activate and make default; the server refusal is shown', async () => {
    prompts.inputs = ['3'];
    prompts.picks = [byLabel(/^\$\(check\) Activate/)];
    await exec(PaletteCommands.settingsSeries);
    let s = await state();
    assert.equal(s.series.find((x) => x.ID === 3)?.IsActive, true);
    await exec(PaletteCommands.settingsSeries, { id: 3, change: 'makeDefault' });
    s = await state();
    assert.deepEqual(s.series.map((x) => [x.ID, x.IsDefault]), [[1, false], [2, false], [3, true]]);
    await exec(PaletteCommands.settingsSeries, { id: 3, change: 'deactivate' });
    assert.equal(lastMessage().level, 'error');
    assert.match(lastMessage().text, /default/i);
    assert.equal((await state()).series.find((x) => x.ID === 3)?.IsActive, true);
  });

  test('mailing switches follow the current state and change the sandbox', async () => {
    const before = await state();
    const whatsapp = before.mailing.find((m) => m.ModuleID === 'WhatsApp')?.IsActive;
    prompts.picks = [byLabel(/WhatsApp/)];
    await exec(PaletteCommands.settingsMailing);
    assert.match(prompts.offered[0].find((i) => /WhatsApp/.test(i.label))?.label ?? '', whatsapp ? /Turn off/ : /Turn on/);
    let s = await state();
    assert.equal(s.mailing.find((m) => m.ModuleID === 'WhatsApp')?.IsActive, !whatsapp);
    const email = s.mailing.find((m) => m.ModuleID === 'Portal')?.IsActive;
    prompts.picks = [byLabel(/E-mail/)];
    await exec(PaletteCommands.settingsMailing);
    s = await state();
    assert.equal(s.mailing.find((m) => m.ModuleID === 'Portal')?.IsActive, !email);
    assert.ok(requests(/POST \/general\/Mailing\/Email\/Setting/i).length === 1);
  });

  test('tax office: an empty password shows the server reason; a good one is saved', async () => {
    prompts.inputs = ['1234567890', ''];
    await exec(PaletteCommands.settingsTaxOffice);
    assert.equal(lastMessage().level, 'error');
    assert.match(lastMessage().text, /not accepted: \S+/);
    assert.equal(requests(/PUT \/general\/InteractiveTaxOffice/i)[0]?.status, 422);
    const password = 'Gizli-Parola-987';
    prompts.inputs = ['ivd-kullanici', password];
    await exec(PaletteCommands.settingsTaxOffice);
    const s = await state();
    assert.deepEqual(s.taxOffice, { UserName: 'ivd-kullanici', Password: password });
    assert.ok(!prompts.messages.some((m) => m.text.includes(password)), 'the password must not appear in a message');
  });
});

/** The direct-create path of "Add as Customer", as taken when no form is registered. */
async function addAsCustomerWithoutForm(ctx: Parameters<typeof addAsCustomer>[0], detail: RegistryDetail): Promise<string> {
  return addAsCustomer(ctx, detail, { useForm: false });
}
