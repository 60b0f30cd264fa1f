// Where the specification is silent (issue 15): the user-visible outcome of registry look-ups,
// customer import, the company form, template/series updates and reconciliation, in a real
// extension host, against a sandbox answering each open point either way (profiles `default` and
// `alternate`). The same correct outcome is asserted under both; row 5's `false` shows a clear error.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createClient } from '../../src/api';
import { EXTENSION_ID, PaletteCommands, ReconciliationCommands, Settings, TreeCommands } from '../../src/constants';
import type { NilveraTrees } from '../../src/views/trees';
import type { NilveraExtensionApi } from '../../src/extension';
import type { MessageLevel, Prompts } from '../../src/shell/prompts';
import { replacePrompts as replaceLocalPrompts } from '../../src/shell/prompts';
import type { ReconciliationReport } from '../../src/reconciliation/report';
import { companyForm } from '../../src/webviews/forms/company';
import { TEMPLATE_IDS_KEY } from '../../src/commands/settings/templatesSeries';
import { completeVkn } from '../../src/domain/taxId';
import { PROFILES } from '../../src/sandbox/behaviour';
import { startTestSandbox, type SandboxHandle } from '../support/sandbox';
import { useSandboxEnvironment } from './sandboxEnvironment';

const CSV_FIXTURE = path.resolve(__dirname, '../../../test/fixtures/customers-tr-excel.csv');

/** Dismisses every question and records every message. */
class QuietPrompts implements Prompts {
  readonly messages: Array<{ level: MessageLevel; text: string }> = [];
  async inputBox(): Promise<string | undefined> {
    return undefined;
  }
  async quickPick<T extends vscode.QuickPickItem>(): Promise<T | undefined> {
    return undefined;
  }
  async message(level: MessageLevel, text: string): Promise<string | undefined> {
    this.messages.push({ level, text });
    return undefined;
  }
  async openDialog(): Promise<vscode.Uri[] | undefined> {
    return undefined;
  }
}

interface State {
  company: Record<string, string | null>;
  templates: Array<{ ID: number; Name: string; IsActive: boolean; IsDefault: boolean }>;
  counts: { customers: number };
}

for (const profile of PROFILES) {
  suite(`Where the API is silent, profile ${profile}`, function () {
    this.timeout(120_000);
    let sandbox: SandboxHandle;
    let api: NilveraExtensionApi;
    let tmp: string;
    const prompts = new QuietPrompts();
    let restore: Array<() => void> = [];
    const exec = <T>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
    const last = () => prompts.messages[prompts.messages.length - 1];
    const state = async () => (await (await fetch(`${sandbox.url}/__sandbox/state`)).json()) as State;

    // The template IDs this suite makes the extension remember are put back as they were, so the
    // suites after it see the ID prompts they expect.
    let rememberedBefore: unknown;
    const globalState = () => api.testing.services.globalState;

    suiteSetup(async () => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), `nilvera-behaviour-${profile}-`));
      sandbox = await startTestSandbox({ customers: 120, registry: 3000, seed: 41, behaviour: { profile } });
      const ext = vscode.extensions.getExtension<NilveraExtensionApi>(EXTENSION_ID);
      assert.ok(ext);
      api = await ext.activate();
      restore = [api.testing.replacePrompts(prompts), replaceLocalPrompts(prompts)];
      await useSandboxEnvironment(api, sandbox);
      rememberedBefore = globalState().get(TEMPLATE_IDS_KEY);
    });

    suiteTeardown(async () => {
      await globalState().update(TEMPLATE_IDS_KEY, rememberedBefore);
      for (const r of restore) r();
      const services = api.testing.services;
      await services.keys.delete(services.secretName('custom'));
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await sandbox.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    });

    setup(() => {
      prompts.messages.length = 0;
      sandbox.resetRequestLog();
    });

    test('rows 1, 2: an unregistered number and an unknown customer are said plainly', async () => {
      let unregistered = '';
      for (let i = 1; !unregistered; i++) {
        const candidate = completeVkn(String(987_640_000 + i));
        const res = await fetch(`${sandbox.url}/general/GlobalCompany/Check/TaxNumber/${candidate}?globalUserType=Invoice`, { headers: { Authorization: `Bearer ${sandbox.keys.full}` } });
        if (res.status === 200 && ((await res.json()) as unknown[]).length === 0) unregistered = candidate;
      }
      await exec(PaletteCommands.registryShowDetail, unregistered);
      assert.match(last()?.text ?? '', new RegExp(`${unregistered} is not in the taxpayer registry`), JSON.stringify(prompts.messages));
      prompts.messages.length = 0;
      const inputs = [unregistered];
      const scripted = Object.assign(Object.create(prompts) as QuietPrompts, { inputBox: async () => inputs.shift() });
      restore.push(api.testing.replacePrompts(scripted), replaceLocalPrompts(scripted));
      try {
        await exec(TreeCommands.customersFindByTaxNumber);
      } finally {
        restore.splice(-2).forEach((r) => r());
        restore.push(api.testing.replacePrompts(prompts), replaceLocalPrompts(prompts));
      }
      assert.match(last()?.text ?? '', new RegExp(`No customer has the tax number ${unregistered}`), JSON.stringify(prompts.messages));
    });

    test('row 3: importing the Excel CSV twice: 16 created, then 0 (the server refuses the existing ones), never doubled', async () => {
      const source = path.join(tmp, 'musteriler.csv');
      fs.copyFileSync(CSV_FIXTURE, source);
      const before = (await state()).counts.customers;
      const first = await exec<{ created: number; rejected: number; unknown: number }>(TreeCommands.customersImport, vscode.Uri.file(source));
      assert.deepEqual([first.created, first.rejected, first.unknown], [16, 4, 0]);
      assert.equal((await state()).counts.customers, before + 16);
      const again = await exec<{ created: number; rejected: number; unknown: number }>(TreeCommands.customersImport, vscode.Uri.file(source));
      assert.deepEqual([again.created, again.rejected, again.unknown], [0, 20, 0]);
      assert.equal((await state()).counts.customers, before + 16, 'nothing stored twice');
    });

    test('row 3b: answers lost after the write, at a service that would store a tax number twice: every row created once, none unconfirmed', async () => {
      // duplicateStatus=accept (in neither profile): only the extension's look-up before it sends a
      // row again keeps a row from being stored twice.
      sandbox.setBehaviour({ quirks: { duplicateStatus: 'accept' } });
      const numbers = Array.from({ length: 12 }, (_, i) => completeVkn(String(876_500_000 + PROFILES.indexOf(profile) * 1000 + i)));
      const source = path.join(tmp, 'kayip-cevap.csv');
      fs.writeFileSync(source, `\uFEFFVergi Numarası;Ünvan;İl\r\n${numbers.map((n, i) => `${n};Kayıp Cevap ${profile} ${i};Bursa`).join('\r\n')}\r\n`);
      // The batch's answer is lost after it was stored, and so are the first look-ups' answers.
      sandbox.setFaults({ queue: ['reset', '500', 'malformed', 'reset'], phase: 'after', match: { path: '^/general/Customers(/GetCustomerInfo/[^/]+)?$' } });
      const before = (await state()).counts.customers;
      try {
        const summary = await exec<{ created: number; rejected: number; unknown: number }>(TreeCommands.customersImport, vscode.Uri.file(source));
        assert.deepEqual([summary.created, summary.rejected, summary.unknown], [12, 0, 0], JSON.stringify(prompts.messages));
      } finally {
        sandbox.clearFaults();
        sandbox.setBehaviour({ quirks: { duplicateStatus: null } });
      }
      assert.equal((await state()).counts.customers, before + 12, 'a row was stored twice or lost');
      const struck = sandbox.requestLog().filter((r) => r.fault).map((r) => `${r.method} ${r.fault?.kind}`);
      assert.deepEqual(struck, ['POST reset', 'GET 500', 'GET malformed', 'GET reset'], 'the planned faults struck the write and its look-ups');
      assert.match(last()?.text ?? '', /Import finished: 12 created, 0 rejected, 0 unconfirmed, 0 not sent\./);
      // Read back with every field filled (profile alternate leaves some null).
      sandbox.setBehaviour({ quirks: { nullableFields: 'filled' } });
      try {
        for (const n of numbers) {
          const found = await fetch(`${sandbox.url}/general/Customers?Page=1&PageSize=100&Search=${n}`, { headers: { Authorization: `Bearer ${sandbox.keys.full}` } });
          const rows = ((await found.json()) as { Content: Array<{ TaxNumber: string }> | null }).Content ?? [];
          assert.equal(rows.filter((c) => c.TaxNumber === n).length, 1, `${n} stored ${rows.length} times`);
        }
      } finally {
        sandbox.setBehaviour({ quirks: { nullableFields: null } });
      }
    });

    test('row 6: saving one field of the company form keeps every other field', async () => {
      const client = createClient({ baseUrl: sandbox.url, getApiKey: async () => sandbox.keys.full });
      await client.company.update({ ...(await client.company.get()), PaymentMeansCode: 'HAVALE_EFT' } as never);
      const before = (await state()).company;
      const form = companyForm();
      const loaded = await form.load(client);
      await form.save(client, { ...loaded.values, City: 'Eskişehir' }, loaded.values);
      const after = (await state()).company;
      assert.equal(after.City, 'Eskişehir');
      for (const [field, value] of Object.entries(before)) if (field !== 'City') assert.deepEqual(after[field], value, `${field} changed`);
    });

    test('rows 5, 7: a template made default, then renamed, keeps its flags; a "false" answer is a clear error', async () => {
      await exec(PaletteCommands.settingsTemplate, { id: 2, change: 'makeDefault' });
      if (profile === 'alternate') {
        assert.equal(last()?.level, 'error');
        assert.match(last()?.text ?? '', /declined the change .*nothing was saved/);
        assert.deepEqual((await state()).templates.find((t) => t.ID === 2), { ID: 2, Name: 'Logolu Şablon', IsActive: true, IsDefault: false, FileSize: 0 });
        // The omitted-field point alone (booleans true): the rename keeps the flags.
        sandbox.setBehaviour({ profile: 'default', quirks: { templatePutOmitted: 'reset' } });
        await exec(PaletteCommands.settingsTemplate, { id: 2, change: 'makeDefault' });
      }
      await exec(PaletteCommands.settingsTemplate, { id: 2, change: 'rename', name: `Logolu ${profile}` });
      const t = (await state()).templates.find((x) => x.ID === 2);
      assert.deepEqual([t?.Name, t?.IsActive, t?.IsDefault], [`Logolu ${profile}`, true, true], JSON.stringify(prompts.messages));
      if (profile === 'alternate') sandbox.setBehaviour({ profile: 'alternate' });
    });

    test('row 8: a wrong key reads as rejected or lacking permission, with the server words', async () => {
      const services = api.testing.services;
      await services.keys.store(services.secretName('custom'), 'YANLIS-ANAHTAR-0000');
      try {
        const inputs = [completeVkn('123456780')];
        const scripted = Object.assign(Object.create(prompts) as QuietPrompts, { inputBox: async () => inputs.shift() });
        restore.push(api.testing.replacePrompts(scripted), replaceLocalPrompts(scripted));
        try {
          await exec(TreeCommands.customersFindByTaxNumber);
        } finally {
          restore.splice(-2).forEach((r) => r());
          restore.push(api.testing.replacePrompts(prompts), replaceLocalPrompts(prompts));
        }
        const shown = prompts.messages.find((m) => m.level === 'error')?.text ?? '';
        assert.match(shown, new RegExp(`rejected or lacks the permission .*HTTP ${profile === 'alternate' ? 403 : 401}.*not valid`), JSON.stringify(prompts.messages));
        assert.ok(!shown.includes('YANLIS-ANAHTAR-0000'));
      } finally {
        await services.keys.store(services.secretName('custom'), sandbox.keys.full);
      }
    });

    test('rows 9, 14, 15: the customers tree loads every customer once with "Load more", whatever paging the server answers', async () => {
      const trees = (await vscode.commands.executeCommand<NilveraTrees>('nilvera.internal.trees'))!;
      const config = vscode.workspace.getConfiguration(Settings.section);
      trees.customers.root.setFilter({ search: '', sortColumn: undefined, sortType: 'ASC' });
      await config.update(Settings.pageSize, 100, vscode.ConfigurationTarget.Global);
      try {
        trees.customers.refresh();
        let rows = await trees.customers.getChildren();
        const isMore = (n: { id: string }) => n.id.endsWith('/~more');
        for (let i = 0; i < 20 && rows.some(isMore); i++) {
          await vscode.commands.executeCommand(TreeCommands.loadMore, rows.find(isMore));
          rows = await trees.customers.getChildren();
        }
        const customers = rows.filter((n) => /\/customer-\d+$/.test(n.id));
        assert.equal(customers.length, (await state()).counts.customers, 'every customer, none missing');
        assert.equal(new Set(customers.map((n) => n.id)).size, customers.length, 'none twice');
        assert.equal(rows.some(isMore), false, 'no endless "Load more"');
      } finally {
        await config.update(Settings.pageSize, undefined, vscode.ConfigurationTarget.Global);
      }
    });

    test('rows 4, 9, 14, 15: reconciliation classifies every customer once, whatever paging and nulls the server sends', async () => {
      const report = await exec<ReconciliationReport>(ReconciliationCommands.run, { source: 'online' });
      assert.ok(report, JSON.stringify(prompts.messages));
      const total = (await state()).counts.customers;
      const ids = [...report.users, ...report.notUsers, ...report.invalid, ...report.unchecked].map((r) => r.customerId);
      assert.equal(new Set(ids).size, ids.length, 'a customer counted twice');
      assert.equal(ids.length, total);
      assert.equal(report.unchecked.length, 0);
      assert.ok(report.users.length > 0, 'some customers are e-invoice users');
    });
  });
}
