// The extension against Stoplight Prism in dynamic mode: a server answering every operation of the
// platform's own (older) OpenAPI export with data generated from its schemas (nulls where the
// schema allows them, negative and huge numbers, lorem-ipsum strings), and 404 for the operations
// the export lacks. Every view is opened and expanded (with "Load more"), every form opened: no
// error notification, no error row, no unhandled rejection, no blank row. A fixed seed keeps the
// data the same from run to run; the assertions hold for any data.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ConnectionCommands, FormCommands } from '../../src/constants';
import type { CheckConnectionResult } from '../../src/commands/connection/checkConnection';
import type { NilveraExtensionApi } from '../../src/extension';
import type { HostMessage, InitMessage } from '../../src/webviews/protocol';
import type { NilveraTrees } from '../../src/views/trees';
import { activateExtension } from '../support/extension';
import { startPrismMock, type PrismMock } from '../support/prismMock';
import { leaveCustomEnvironment, useCustomEnvironment } from '../support/sandboxSuite';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { allRows, clearCustomersFilter, extensionTrees, labelOf, walkViews } from './treeWalk';

// Bundled to out/test/suite/: the repository root is three folders up.
const ROOT = path.resolve(__dirname, '../../..');
const PRISM = path.join(ROOT, 'node_modules', '.bin', 'prism');
const EXPORT = path.join(ROOT, 'test', 'fixtures', 'general.swagger.json');
const SEED = '20261123';
// Prism checks only that a Bearer key is sent.
const PRISM_KEY = 'PRISM0000000000000000000000000000000000000000000000000000000000';

suite('Prism dynamic mock of the OpenAPI export', function () {
  this.timeout(90_000);
  let prism: PrismMock | undefined;
  let api: NilveraExtensionApi;
  let trees: NilveraTrees;
  const prompts = new ScriptedPrompts();
  let restorePrompts: () => void = () => undefined;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  suiteSetup(async () => {
    assert.ok(fs.existsSync(PRISM), 'node_modules/.bin/prism is missing');
    prism = await startPrismMock([PRISM], EXPORT, ['-d', '--seed', SEED]);
    api = await activateExtension();
    restorePrompts = api.testing.replacePrompts(prompts);
    trees = await extensionTrees();
    clearCustomersFilter(trees);
    await useCustomEnvironment(api, prism.url, PRISM_KEY);
    process.on('unhandledRejection', onUnhandled);
  });

  suiteTeardown(async () => {
    process.off('unhandledRejection', onUnhandled);
    restorePrompts();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await leaveCustomEnvironment(api);
    await prism?.stop();
  });

  setup(() => {
    prompts.messages.length = 0;
    unhandled.length = 0;
  });

  test('every view expanded, with "Load more": no error row, no blank label, no error notification', async () => {
    trees.refreshAll();
    const rows = allRows(await walkViews(trees, 2));
    assert.ok(rows.length >= 10, `only ${rows.length} rows`);
    for (const node of rows) {
      const label = labelOf(node);
      assert.ok(label.trim().length > 0, `blank label: ${node.id}`);
      const description = node.treeItem().description;
      assert.doesNotMatch(`${label} ${typeof description === 'string' ? description : ''}`, /\bundefined\b|\bNaN\b|\[object Object\]/, node.id);
    }
    assert.deepEqual(rows.filter((n) => n.id.endsWith('/~error')).map((n) => `${n.id}: ${labelOf(n)}`), []);
    // The export has no CompanyDocuments or InteractiveTaxOffice: those say so, the rest loads.
    assert.deepEqual(rows.filter((n) => n.id.endsWith('/~notOffered')).map((n) => n.id).sort(), ['account/taxOffice/~notOffered', 'documents/~notOffered']);
    assert.deepEqual(prompts.messages.filter((m) => m.level === 'error'), []);
    assert.deepEqual(unhandled.map(String), []);
  });

  test('every form opens and loads its record: company, settings, new customer, new certificate', async () => {
    // What Prism answers (the same for the same request, with the seed): the values the forms must show.
    const get = async <T>(apiPath: string): Promise<T> => {
      const res = await fetch(`${prism!.url}${apiPath}`, { headers: { Authorization: `Bearer ${PRISM_KEY}` } });
      assert.equal(res.status, 200, apiPath);
      return (await res.json()) as T;
    };
    const company = await get<Record<string, unknown>>('/general/Company');
    const mailing = await get<Array<{ ModuleID?: string; IsActive?: boolean }>>('/general/Mailing/Setting');
    const shown = (v: unknown) => (typeof v === 'string' ? v : '');
    const active = (module: string) => mailing.find((m) => m.ModuleID === module)?.IsActive === true;
    const opened: Array<{ command: string; viewType: string; values: Record<string, string | boolean> }> = [
      {
        command: FormCommands.company,
        viewType: 'nilvera.form.company',
        values: Object.fromEntries(['Name', 'TaxNumber', 'TaxOffice', 'Address', 'District', 'City', 'Country', 'PostalCode', 'PhoneNumber', 'Email', 'WebSite', 'PayeeFinancialAccountID'].map((f) => [f, shown(company[f])])),
      },
      // The export has no InteractiveTaxOffice: the mailing switches load, the tax office section says it is not offered.
      { command: FormCommands.settings, viewType: 'nilvera.form.settings', values: { EmailActive: active('Portal'), ChatActive: active('WhatsApp') } },
      { command: FormCommands.customer, viewType: 'nilvera.form.customer', values: { TaxNumber: '', Name: '' } },
      { command: FormCommands.certificate, viewType: 'nilvera.form.certificate', values: { SerialNo: '' } },
    ];
    assert.ok(Object.values(opened[0].values).filter((v) => v !== '').length >= 5, `Prism's company has too few values to tell a loaded form: ${JSON.stringify(company).slice(0, 300)}`);
    for (const { command, viewType, values } of opened) {
      await vscode.commands.executeCommand(command);
      const panels = (await vscode.commands.executeCommand<Array<{ viewType: string; recordKey: string }>>(FormCommands.inspect)) ?? [];
      const panel = panels.find((p) => p.viewType === viewType);
      assert.ok(panel, `${viewType} did not open`);
      const answers = (await vscode.commands.executeCommand<HostMessage[] | undefined>(FormCommands.simulate, panel.recordKey, { type: 'ready' })) ?? [];
      const init = answers.find((m): m is InitMessage => m.type === 'init');
      assert.ok(init, `${viewType}: no init message: ${JSON.stringify(answers).slice(0, 300)}`);
      // A failed load also sends init (an empty form), followed by the reason: neither may happen here.
      assert.deepEqual(answers.filter((m) => m.type === 'response' && !m.ok), [], `${viewType}: the load failed`);
      assert.ok(init.spec.sections.some((s) => s.fields.length > 0), `${viewType}: a form without fields`);
      for (const [field, value] of Object.entries(values)) assert.deepEqual(init.values[field], value, `${viewType}: ${field} is not the server's value`);
    }
    assert.deepEqual(prompts.messages.filter((m) => m.level === 'error'), []);
    assert.deepEqual(unhandled.map(String), []);
  });

  test('Check Connection completes against it and reports every call', async () => {
    const result = await vscode.commands.executeCommand<CheckConnectionResult | undefined>(ConnectionCommands.check);
    assert.ok(result, JSON.stringify(prompts.messages));
    assert.match(result.markdown, /\| `GET \/general\/CompanyDocuments` \| 404 /);
    assert.deepEqual(prompts.messages.filter((m) => m.level === 'error'), []);
    assert.deepEqual(unhandled.map(String), []);
  });
});
