// What the user sees in a real extension host on the points public code showed about the real
// service (README, "Where the API documentation is silent": recordLookupMissing, templatePutOmitted, emptyList, customerBatchStatus), each under its
// answers: an empty list answered 404 (the views, and what Check Connection tells them), a customer
// batch refused with 400 (the import's per-row report), a template or series update with a flag left
// out refused with 400 (the extension sends both), and 204 for a missing record. Also: the walkthrough
// is told when a step is done.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ConnectionCommands, PaletteCommands, TreeCommands } from '../../src/constants';
import type { CheckConnectionResult } from '../../src/commands/connection/checkConnection';
import type { NilveraExtensionApi } from '../../src/extension';
import { describeError } from '../../src/shell/errorMessages';
import { replacePrompts as replaceLocalPrompts } from '../../src/shell/prompts';
import { completeVkn } from '../../src/domain/taxId';
import type { NilveraTrees } from '../../src/views/trees';
import type { TreeNode } from '../../src/views/treeNode';
import { STEPS_TOLD_STATE } from '../../src/walkthrough/stepsDone';
import { activateExtension } from '../support/extension';
import { api as raw, setSandboxBehaviour, startTestSandbox, type SandboxHandle } from '../support/sandbox';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { leaveCustomEnvironment, useSandboxEnvironment } from '../support/sandboxSuite';
import { clearCustomersFilter, extensionTrees, labelOf, walkViews } from './treeWalk';


suite('Public evidence about the real service, as the user sees it', function () {
  this.timeout(120_000);
  let api: NilveraExtensionApi;
  let trees: NilveraTrees;
  let sandbox: SandboxHandle;
  let tmp: string;
  const prompts = new ScriptedPrompts();
  // Check a Tax Number asks for the document type: the first (Invoice).
  prompts.pick = (items) => items[0];
  let restore: Array<() => void> = [];

  /** Four lists of a view root: their rows after a reload. */
  async function listRows(): Promise<Record<'customers' | 'certificates' | 'documents' | 'identifications', TreeNode[]>> {
    trees.refreshAll();
    const rows = await walkViews(trees, 0);
    return { customers: rows.customers, certificates: rows.certificates, documents: rows.documents, identifications: rows.identifications };
  }

  async function checkConnection(): Promise<CheckConnectionResult> {
    const result = await vscode.commands.executeCommand<CheckConnectionResult | undefined>(ConnectionCommands.check);
    assert.ok(result, `Check Connection failed: ${JSON.stringify(prompts.messages)}`);
    return result;
  }

  suiteSetup(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-evidence-'));
    sandbox = await startTestSandbox({ customers: 30, registry: 200, seed: 61 });
    api = await activateExtension();
    restore = [api.testing.replacePrompts(prompts), replaceLocalPrompts(prompts)];
    trees = await extensionTrees();
    clearCustomersFilter(trees);
    await useSandboxEnvironment(api, sandbox);
  });

  suiteTeardown(async () => {
    for (const r of restore) r();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await leaveCustomEnvironment(api);
    await sandbox.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  setup(async () => {
    prompts.messages.length = 0;
    prompts.inputs = [];
    await setSandboxBehaviour(sandbox, { profile: 'default' });
  });

  test('customerBatchStatus: an import refused with 400 is narrowed down to its rows; each gets the server\'s reason in the rejected file; nothing is created twice', async () => {
    const existing = ((await raw(sandbox, 'GET', '/general/Customers?PageSize=2&SortColumn=ID')).json as { Content: Array<{ TaxNumber: string }> }).Content.map((c) => c.TaxNumber);
    for (const [i, [status, batch]] of ([['400', 'rejectAll'], ['400unnamed', 'rejectAll'], ['400unnamed', 'createGood']] as const).entries()) {
      await setSandboxBehaviour(sandbox, { profile: 'default', quirks: { customerBatchStatus: status, customerBatchBadRow: batch } });
      const fresh = Array.from({ length: 6 }, (_, k) => completeVkn(String(850_000_000 - i * 100 - k)));
      const source = path.join(tmp, `import-${status}-${batch}.csv`);
      const lines = ['VKN;Ünvan', ...fresh.map((t, k) => `${t};Yeni Müşteri ${i}-${k}`), `${existing[0]};Başka Bir Ünvan ${i}`, `${existing[1]};Yine Başka ${i}`];
      fs.writeFileSync(source, '\uFEFF' + lines.join('\r\n') + '\r\n');
      const before = ((await raw(sandbox, 'GET', '/__sandbox/customers/count')).json as { count: number }).count;
      const summary = await vscode.commands.executeCommand<{ created: number; rejected: number; unknown: number; rejectedFile: string }>(TreeCommands.customersImport, vscode.Uri.file(source));
      assert.deepEqual([summary.created, summary.rejected, summary.unknown], [6, 2, 0], `${status}/${batch}: ${JSON.stringify(prompts.messages)}`);
      assert.equal(((await raw(sandbox, 'GET', '/__sandbox/customers/count')).json as { count: number }).count, before + 6, `${status}/${batch}: each new customer stored once`);
      const rejected = fs.readFileSync(summary.rejectedFile, 'utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
      assert.equal(rejected.length, 3, rejected.join('\n'));
      for (const tax of existing) {
        const line = rejected.find((l) => l.startsWith(tax));
        // The server's own words, without the position inside a batch ("[7].TaxNumber: …" reads "TaxNumber: …").
        assert.match(line ?? '', /;(TaxNumber: )?A customer with this tax number exists\.$/, `${status}/${batch}: ${line}`);
      }
      for (const t of fresh) assert.ok((await raw(sandbox, 'GET', `/general/Customers/GetCustomerInfo/${t}`)).status === 200);
    }
  });

  test('customerBatchStatus after a lost answer: a row refused without being named, sent again alone, is rejected once; the import ends', async () => {
    await setSandboxBehaviour(sandbox, { profile: 'default', quirks: { customerBatchStatus: '400unnamed', customerBatchBadRow: 'rejectAll' } });
    const [held] = ((await raw(sandbox, 'GET', '/general/Customers?PageSize=1&SortColumn=ID')).json as { Content: Array<{ TaxNumber: string }> }).Content.map((c) => c.TaxNumber);
    const fresh = Array.from({ length: 3 }, (_, k) => completeVkn(String(851_000_000 - k)));
    const source = path.join(tmp, 'import-lost-answer.csv');
    fs.writeFileSync(source, '\uFEFF' + ['VKN;Ünvan', ...fresh.map((t, k) => `${t};Kayıp Cevap ${k}`), `${held};Başka Bir Ünvan`].join('\r\n') + '\r\n');
    const before = ((await raw(sandbox, 'GET', '/__sandbox/customers/count')).json as { count: number }).count;
    const logBefore = sandbox.requestLog().length;
    // The first POST's connection breaks before the server reads it: nothing stored, the answer lost.
    sandbox.setFaults({ queue: ['reset'], match: { method: 'POST', path: '^/general/customers$' } });
    try {
      const summary = await vscode.commands.executeCommand<{ created: number; rejected: number; unknown: number; rejectedFile: string }>(TreeCommands.customersImport, vscode.Uri.file(source));
      assert.deepEqual([summary.created, summary.rejected, summary.unknown], [3, 1, 0], JSON.stringify(prompts.messages));
      const posts = sandbox.requestLog().slice(logBefore).filter((r) => r.method === 'POST' && /^\/general\/customers$/i.test(r.path));
      assert.ok(posts.some((r) => r.fault?.kind === 'reset'), 'the first answer was lost');
      assert.ok(posts.length <= 6, `${posts.length} POSTs: the refused row was sent again and again`);
      assert.equal(((await raw(sandbox, 'GET', '/__sandbox/customers/count')).json as { count: number }).count, before + 3);
      const rejected = fs.readFileSync(summary.rejectedFile, 'utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
      assert.match(rejected.find((l) => l.startsWith(held)) ?? '', /;(TaxNumber: )?A customer with this tax number exists\.$/);
    } finally {
      sandbox.clearFaults();
    }
  });

  test('recordLookupMissing: a missing record answered 204 reads as "not found": Find Customer by Tax Number says so', async () => {
    const missing = completeVkn('777000111');
    for (const answer of ['404', 'noContent'] as const) {
      await setSandboxBehaviour(sandbox, { profile: 'default', quirks: { recordLookupMissing: answer } });
      prompts.messages.length = 0;
      prompts.inputs = [missing];
      await vscode.commands.executeCommand(TreeCommands.customersFindByTaxNumber);
      assert.deepEqual(prompts.messages.map(({ level, text }) => ({ level, text })), [{ level: 'info', text: `No customer has the tax number ${missing}.` }], answer);
    }
    // A certificate that is gone: the record no longer exists.
    await setSandboxBehaviour(sandbox, { profile: 'default', quirks: { recordLookupMissing: 'noContent' } });
    const client = (await api.testing.services.client()) as unknown as { certificates: { get(serial: string): Promise<unknown> } };
    const error = await client.certificates.get('NO-SUCH-SERIAL').then(() => assert.fail('expected not found'), (e: unknown) => e);
    assert.match(describeError(error).text, /^The record no longer exists; refresh the view\./);
  });

  test('templatePutOmitted: the template and series commands send both flags, so a server that refuses a flag left out (the default) takes them', async () => {
    for (const answer of ['refuse', 'reset'] as const) {
      await setSandboxBehaviour(sandbox, { profile: 'default', quirks: { templatePutOmitted: answer } });
      const series = await vscode.commands.executeCommand<{ IsActive: boolean; IsDefault: boolean }>(PaletteCommands.settingsSeries, { id: 2, change: 'activate' });
      assert.deepEqual([series.IsActive, series.IsDefault], [true, false], answer);
      const template = await vscode.commands.executeCommand<{ Name: string; IsActive: boolean; IsDefault: boolean }>(PaletteCommands.settingsTemplate, { id: 2, change: 'rename', name: `Logolu ${answer}`, keep: 'active' });
      assert.deepEqual([template.Name, template.IsActive, template.IsDefault], [`Logolu ${answer}`, true, false]);
      const state = (await (await fetch(`${sandbox.url}/__sandbox/state`)).json()) as { templates: Array<{ ID: number; Name: string; IsActive: boolean }> };
      assert.deepEqual(state.templates.find((t) => t.ID === 2)?.Name, `Logolu ${answer}`);
      assert.ok(!prompts.messages.some((m) => m.level === 'error'), JSON.stringify(prompts.messages));
    }
  });

  // What the walkthrough then shows is test/e2e/scenarios/walkthrough.test.ts; here: the step is marked,
  // through VS Code's own command, which answers (a wrong command id or no call at all is never confirmed).
  test('the walkthrough is told when a step happens: after Check a Tax Number, VS Code\'s Mark Step Complete has confirmed the step', async () => {
    prompts.inputs = ['4540536920'];
    await vscode.commands.executeCommand(PaletteCommands.registryCheckTaxNumber);
    const told = () => api.testing.services.globalState.get<string[]>(STEPS_TOLD_STATE) ?? [];
    const deadline = Date.now() + 10_000;
    while (!told().includes('checkTaxNumber') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.ok(told().includes('checkTaxNumber'), `steps VS Code confirmed: ${JSON.stringify(told())}`);
  });

  test('emptyList: with nothing to list, the views show an empty list; a bare 404 says both are possible until Check Connection tells which', async () => {
    // Empty the account (read as plain lists while doing it).
    await setSandboxBehaviour(sandbox, { profile: 'default', quirks: { emptyList: 'emptyArray' } });
    for (const [list, del] of [
      ['/general/Company/Certificate', '/general/Company/Certificate/'],
      ['/general/CompanyIdentification', '/general/CompanyIdentification/'],
      ['/general/CompanyDocuments', '/general/CompanyDocuments/'],
    ] as const) {
      for (const r of (await raw(sandbox, 'GET', list)).json as Array<{ ID: number }>) await raw(sandbox, 'DELETE', `${del}${r.ID}`);
    }
    const ids: number[] = [];
    for (let page = 1; ; page++) {
      const content = ((await raw(sandbox, 'GET', `/general/Customers?Page=${page}&PageSize=100`)).json as { Content: Array<{ ID: number }> }).Content;
      if (content.length === 0) break;
      ids.push(...content.map((c) => c.ID));
    }
    await raw(sandbox, 'DELETE', '/general/Customers/Bulk', ids);

    for (const answer of ['notFound', 'emptyArray'] as const) {
      await setSandboxBehaviour(sandbox, { profile: 'default', quirks: { emptyList: answer } });
      const rows = await listRows();
      // No rows: VS Code shows the view's welcome ("No certificates yet. [Add Certificate]"…).
      assert.deepEqual(Object.values(rows).map((r) => r.map(labelOf)), [[], [], [], []], answer);
    }

    await setSandboxBehaviour(sandbox, { profile: 'default', quirks: { emptyList: 'bareNotFound' } });
    const ambiguous = await listRows();
    assert.deepEqual(
      Object.values(ambiguous).map((r) => r.map(labelOf)),
      [
        ['No customers, or this server does not offer the customer list (HTTP 404)'],
        ['No certificates, or this server does not offer certificates (HTTP 404)'],
        ['No company documents, or this server does not offer company documents (HTTP 404)'],
        ['No company identifications, or this server does not offer company identifications (HTTP 404)'],
      ],
    );
    const item = ambiguous.certificates[0].treeItem();
    assert.equal(item.command?.command, ConnectionCommands.check, 'a click runs Check Connection');
    assert.ok(ambiguous.certificates[0].id.endsWith('/~notOffered'), 'not an error row with Retry');
    const client = (await api.testing.services.client()) as unknown as { documents: { list(): Promise<unknown> } };
    const listError = await client.documents.list().then(() => assert.fail('expected a 404'), (e: unknown) => e);
    assert.match(describeError(listError).text, /^Not found \(HTTP 404\): the list is empty, or this server does not offer this operation\./);

    // Check Connection asks the server which it is: every list is there, just empty.
    const check = await checkConnection();
    assert.deepEqual(check.lists.map((f) => [f.operation, f.availability]), [
      ['certificates.list', 'offered'],
      ['identifications.list', 'offered'],
      ['documents.list', 'offered'],
      ['customers.list', 'offered'],
    ]);
    assert.deepEqual(Object.values(await listRows()).map((r) => r.map(labelOf)), [[], [], [], []]);

    // A deployment without company documents: once Check Connection has seen it, the view says so.
    await setSandboxBehaviour(sandbox, { profile: 'default', quirks: { emptyList: 'bareNotFound', operations: 'olderExport' } });
    await checkConnection();
    const older = await listRows();
    assert.deepEqual(older.documents.map(labelOf), ['This server does not offer company documents']);
    assert.deepEqual(older.certificates.map(labelOf), []);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
