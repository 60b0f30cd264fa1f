// Where the specification is silent: the user-visible outcome of registry look-ups, customer
// import, certificate details, the company and settings forms, template/series updates, the
// customers view's sort, dates and reconciliation, in a real extension host, against a sandbox
// answering each open point either way (profiles `default` and `alternate`, and single answers
// neither shows). The same correct outcome is asserted under both; booleanAnswer's `false` shows a clear error.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createClient } from '../../src/api';
import { FormCommands, PaletteCommands, ReconciliationCommands, Settings, TreeCommands } from '../../src/constants';
import type { HostMessage, InitMessage } from '../../src/webviews/protocol';
import type { NilveraExtensionApi } from '../../src/extension';
import { replacePrompts as replaceLocalPrompts } from '../../src/shell/prompts';
import type { ReconciliationReport } from '../../src/reconciliation/report';
import { companyForm } from '../../src/webviews/forms/company';
import { TEMPLATE_IDS_KEY } from '../../src/commands/settingsCommands';
import { completeVkn } from '../../src/domain/taxId';
import { PROFILES } from '../../src/sandbox/behaviour';
import { activateExtension } from '../support/extension';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { startTestSandbox, type SandboxHandle } from '../support/sandbox';
import { useSandboxEnvironment } from '../support/sandboxSuite';
import { clearCustomersFilter, extensionTrees } from './treeWalk';

const CSV_FIXTURE = path.resolve(__dirname, '../../../test/fixtures/customers-tr-excel.csv');

interface State {
  company: Record<string, string | null>;
  mailing: Array<{ ModuleID: string; IsActive: boolean }>;
  templates: Array<{ ID: number; Name: string; IsActive: boolean; IsDefault: boolean }>;
  counts: { customers: number };
}

for (const profile of PROFILES) {
  suite(`Where the API is silent, profile ${profile}`, function () {
    this.timeout(120_000);
    let sandbox: SandboxHandle;
    let api: NilveraExtensionApi;
    let tmp: string;
    const prompts = new ScriptedPrompts();
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
      api = await activateExtension();
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

    test('registryLookupMissing, recordLookupMissing: an unregistered number and an unknown customer are said plainly', async () => {
      let unregistered = '';
      for (let i = 1; !unregistered; i++) {
        const candidate = completeVkn(String(987_640_000 + i));
        const res = await fetch(`${sandbox.url}/general/GlobalCompany/Check/TaxNumber/${candidate}?globalUserType=Invoice`, { headers: { Authorization: `Bearer ${sandbox.keys.full}` } });
        if (res.status === 200 && ((await res.json()) as unknown[]).length === 0) unregistered = candidate;
      }
      await exec(PaletteCommands.registryShowDetail, unregistered);
      assert.match(last()?.text ?? '', new RegExp(`${unregistered} is not in the taxpayer registry`), JSON.stringify(prompts.messages));
      prompts.messages.length = 0;
      prompts.inputs = [unregistered];
      await exec(TreeCommands.customersFindByTaxNumber);
      assert.match(last()?.text ?? '', new RegExp(`No customer has the tax number ${unregistered}`), JSON.stringify(prompts.messages));
    });

    test('customerBatchBadRow: importing the Excel CSV twice: 16 created, then 0 (the server refuses the existing ones), never doubled', async () => {
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

    test('customerBatchBadRow (answer lost): answers lost after the write, at a service that would store a tax number twice: every row created once, none unconfirmed', async () => {
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

    test('recordLookupMissing: a certificate deleted meanwhile reads "The record no longer exists", whether the look-up answers 404, empty or null', async () => {
      const trees = await extensionTrees();
      trees.certificates.refresh();
      const node = (await trees.certificates.getChildren()).find((n) => /\/certificate-/.test(n.id) || n.treeItem().contextValue === 'certificate');
      assert.ok(node, 'no certificate row');
      const { certificate } = node as unknown as { certificate: { ID: number; SerialNo: string } };
      // Another window deletes it (a `true` answer, so the delete is done).
      sandbox.setBehaviour({ quirks: { booleanAnswer: 'true' } });
      const removed = await fetch(`${sandbox.url}/general/Company/Certificate/${certificate.ID}`, { method: 'DELETE', headers: { Authorization: `Bearer ${sandbox.keys.full}` } });
      assert.equal(removed.status, 200);
      try {
        for (const answer of ['404', 'emptyBody', 'null'] as const) {
          sandbox.setBehaviour({ quirks: { recordLookupMissing: answer } });
          prompts.messages.length = 0;
          await exec(TreeCommands.certificatesDetails, node);
          const shown = prompts.messages.filter((m) => m.level === 'error').map((m) => m.text);
          assert.equal(shown.length, 1, `${answer}: ${JSON.stringify(prompts.messages)}`);
          assert.match(shown[0], /^The record no longer exists; refresh the view\./, `${answer}: ${shown[0]}`);
        }
      } finally {
        sandbox.setBehaviour({ quirks: { booleanAnswer: null, recordLookupMissing: null } });
      }
    });

    test('companyPutOmitted: a payment means left empty in the company form keeps the service\'s value; the form then shows it', async () => {
      const client = createClient({ baseUrl: sandbox.url, getApiKey: async () => sandbox.keys.full });
      sandbox.setBehaviour({ quirks: { booleanAnswer: 'true' } });
      try {
        await client.company.update({ ...(await client.company.get()), PaymentMeansCode: 'KREDIKARTI_BANKAKARTI' } as never);
      } finally {
        sandbox.setBehaviour({ quirks: { booleanAnswer: null } });
      }
      await exec(FormCommands.company);
      const send = async (message: Record<string, unknown>) => (await exec<HostMessage[] | undefined>(FormCommands.simulate, 'company', message)) ?? [];
      const init = (await send({ type: 'ready' })).find((m): m is InitMessage => m.type === 'init');
      assert.equal(init?.values.PaymentMeansCode, 'KREDIKARTI_BANKAKARTI');
      // The user sets the payment means to "(not set)" and changes the city.
      const saved = (await send({ type: 'save', requestId: 7, values: { ...init.values, PaymentMeansCode: '', City: `Kütahya ${profile}` } })).find((m) => m.type === 'response');
      assert.ok(saved?.type === 'response' && saved.ok, JSON.stringify(saved));
      const after = (await state()).company;
      assert.deepEqual([after.PaymentMeansCode, after.City], ['KREDIKARTI_BANKAKARTI', `Kütahya ${profile}`], 'the service kept its payment means');
      assert.equal(saved.values?.PaymentMeansCode, 'KREDIKARTI_BANKAKARTI', 'the form shows the value the service kept');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    });

    test('sortColumns: a sort the server refuses still lists the customers, and the view says "the server does not sort by City: its own order"', async () => {
      const trees = await extensionTrees();
      const customerRows = async () => (await trees.customers.getChildren()).filter((n) => /\/customer-\d+$/.test(n.id));
      const idOf = (n: { id: string }) => Number(/customer-(\d+)$/.exec(n.id)?.[1]);
      const cityOf = (n: { treeItem(): vscode.TreeItem }) => String(n.treeItem().description ?? '').split(' · ')[1] ?? '';
      const collator = new Intl.Collator('tr', { sensitivity: 'base' });
      await vscode.commands.executeCommand('nilvera.customers.focus');
      try {
        for (const answer of ['fixedList', 'anyField'] as const) {
          sandbox.setBehaviour({ quirks: { sortColumns: answer, nullableFields: 'filled' } });
          trees.customers.root.setFilter({ search: '', sortColumn: 'City', sortType: 'ASC' });
          trees.customers.refresh();
          const rows = await customerRows();
          assert.ok(rows.length >= 20, `${answer}: ${rows.length} customers listed`);
          const description = trees.customersView.description ?? '';
          if (answer === 'fixedList') {
            assert.equal(description, 'the server does not sort by City: its own order');
            const ids = rows.map(idOf);
            assert.deepEqual(ids, [...ids].sort((a, b) => a - b), "the service's own order (by ID)");
          } else {
            assert.equal(description, 'sorted by City ↑');
            const cities = rows.map(cityOf);
            assert.deepEqual(cities, [...cities].sort(collator.compare), 'sorted by city');
          }
        }
      } finally {
        sandbox.setBehaviour({ quirks: { sortColumns: null, nullableFields: null } });
        clearCustomersFilter(trees);
        trees.customers.refresh();
      }
    });

    test('dateFormat: certificate rows and the certificate form show the same dates whether the service writes offsets or not', async () => {
      const trees = await extensionTrees();
      const seen: Record<string, unknown> = {};
      try {
        for (const answer of ['local', 'offset'] as const) {
          sandbox.setBehaviour({ quirks: { dateFormat: answer, nullableFields: 'filled' } });
          trees.certificates.refresh();
          const rows = (await trees.certificates.getChildren()).filter((n) => n.treeItem().contextValue === 'certificate');
          assert.ok(rows.length > 0, 'no certificate rows');
          const tooltip = (n: (typeof rows)[number]) => { const t = n.treeItem().tooltip; return t instanceof vscode.MarkdownString ? t.value.replace(/\\(.)/g, '$1') : String(t ?? ''); };
          const shown = rows.map((n) => ({ label: n.treeItem().label, description: n.treeItem().description, icon: (n.treeItem().iconPath as vscode.ThemeIcon).id, tooltip: tooltip(n) }));
          for (const r of shown) {
            assert.doesNotMatch(`${String(r.description)} ${r.tooltip}`, /T\d\d:|\+03:00/, `${answer}: a time or offset is shown: ${JSON.stringify(r)}`);
          }
          // A day in the display language's form ("Jan 2, 2026", "2 Oca 2026"; src/domain/localeDate.ts).
          const day = /\p{L}{3,}\.? \d{1,2}, \d{4}|\d{1,2} \p{L}{3,}\.? \d{4}/u;
          assert.ok(shown.some((r) => day.test(`${String(r.description)} ${r.tooltip}`)), `${answer}: no date shown: ${JSON.stringify(shown[0])}`);
          await exec(FormCommands.certificate, { certificate: (rows[0] as unknown as { certificate: unknown }).certificate });
          const panels = (await exec<Array<{ viewType: string; recordKey: string }>>(FormCommands.inspect)) ?? [];
          const panel = panels.find((p) => p.viewType === 'nilvera.form.certificate' && !p.recordKey.endsWith(':new'));
          assert.ok(panel, JSON.stringify(panels));
          const init = ((await exec<HostMessage[] | undefined>(FormCommands.simulate, panel.recordKey, { type: 'ready' })) ?? []).find((m): m is InitMessage => m.type === 'init');
          assert.match(String(init?.values.EndDate), /^\d{4}-\d\d-\d\d$/, `${answer}: the form's date`);
          seen[answer] = { rows: shown, form: [init?.values.StartDate, init?.values.EndDate] };
          await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
        }
        assert.deepEqual(seen.offset, seen.local, 'the dates look the same in both forms');
      } finally {
        sandbox.setBehaviour({ quirks: { dateFormat: null, nullableFields: null } });
      }
    });

    test('operations: where the service lacks the tax office operations, the settings form loads the mailing switches, says the tax office is not offered, and saves a switch alone', async () => {
      sandbox.setBehaviour({ quirks: { operations: 'olderExport', booleanAnswer: 'true' } });
      try {
        await exec(FormCommands.settings);
        const send = async (message: Record<string, unknown>) => (await exec<HostMessage[] | undefined>(FormCommands.simulate, 'settings', message)) ?? [];
        const answers = await send({ type: 'ready' });
        assert.deepEqual(answers.filter((m) => m.type === 'response' && !m.ok), [], 'the form did not load');
        const init = answers.find((m): m is InitMessage => m.type === 'init');
        assert.ok(init);
        const whatsapp = (await state()).mailing.find((m) => m.ModuleID === 'WhatsApp')?.IsActive === true;
        assert.deepEqual([init.values.ChatActive, init.values.TaxOfficeUserName], [whatsapp, undefined]);
        const taxOffice = init.spec.sections.find((sec) => sec.title === 'Interactive tax office');
        assert.deepEqual([taxOffice?.fields, taxOffice?.info], [[], ['This server does not offer the interactive tax office settings']]);
        sandbox.resetRequestLog();
        const saved = (await send({ type: 'save', requestId: 3, values: { ...init.values, ChatActive: !whatsapp } })).find((m) => m.type === 'response');
        assert.ok(saved?.type === 'response' && saved.ok, JSON.stringify(saved));
        assert.equal((await state()).mailing.find((m) => m.ModuleID === 'WhatsApp')?.IsActive, !whatsapp);
        assert.deepEqual(sandbox.requestLog().filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`), [`POST /general/Mailing/Whatsapp/Setting/${!whatsapp}`]);
      } finally {
        sandbox.setBehaviour({ quirks: { operations: null, booleanAnswer: null } });
        await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      }
    });

    test('companyPutOmitted: saving one field of the company form keeps every other field', async () => {
      const client = createClient({ baseUrl: sandbox.url, getApiKey: async () => sandbox.keys.full });
      await client.company.update({ ...(await client.company.get()), PaymentMeansCode: 'HAVALE_EFT' } as never);
      const before = (await state()).company;
      const form = companyForm();
      const loaded = await form.load(client);
      await form.save(client, { ...loaded.values, City: 'Eskişehir' }, loaded.values, { environment: 'custom' });
      const after = (await state()).company;
      assert.equal(after.City, 'Eskişehir');
      for (const [field, value] of Object.entries(before)) if (field !== 'City') assert.deepEqual(after[field], value, `${field} changed`);
    });

    test('booleanAnswer, templatePutOmitted: a template made default, then renamed, keeps its flags; a "false" answer is a clear error', async () => {
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

    test('badKeyStatus: a wrong key reads as rejected or lacking permission, with the server words', async () => {
      const services = api.testing.services;
      await services.keys.store(services.secretName('custom'), 'YANLIS-ANAHTAR-0000');
      try {
        prompts.inputs = [completeVkn('123456780')];
        await exec(TreeCommands.customersFindByTaxNumber);
        const shown = prompts.messages.find((m) => m.level === 'error')?.text ?? '';
        assert.match(shown, new RegExp(`rejected or lacks the permission .*HTTP ${profile === 'alternate' ? 403 : 401}.*not valid`), JSON.stringify(prompts.messages));
        assert.ok(!shown.includes('YANLIS-ANAHTAR-0000'));
      } finally {
        await services.keys.store(services.secretName('custom'), sandbox.keys.full);
      }
    });

    test('pageSizeLimit, nullableFields, pageBeyondEnd: the customers tree loads every customer once with "Load more", whatever paging the server answers', async () => {
      const trees = await extensionTrees();
      const config = vscode.workspace.getConfiguration(Settings.section);
      clearCustomersFilter(trees);
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

    test('bulkLookupMissing, pageSizeLimit, nullableFields, pageBeyondEnd: reconciliation classifies every customer once, whatever paging and nulls the server sends', async () => {
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
