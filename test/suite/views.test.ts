// The sidebar trees in a real extension host, against an in-process sandbox reached through the
// Custom URL environment: paging with "Load more" (one request per page, even when clicked twice),
// search and sort, an error item with Retry, deletes (one and bulk), import and export, the record
// views and the account view. Every change is checked in the sandbox's own state.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ACCOUNT_GROUP_COMMAND_PREFIX, EXTENSION_ID, FormCommands, Settings, TreeCommands } from '../../src/constants';
import type { NilveraExtensionApi } from '../../src/extension';
import type { SearchPickOptions } from '../../src/shell/prompts';
import type { NilveraTrees } from '../../src/views/trees';
import type { TreeNode } from '../../src/views/treeNode';
import type { NodeTreeProvider } from '../../src/views/treeProvider';
import { parseCsv } from '../../src/domain/csv';
import { completeVkn } from '../../src/domain/taxId';
import { activateExtension } from '../support/extension';
import { requestsSettled, sandboxIdle } from '../support/requestsSettled';
import { startTestSandbox, type SandboxHandle, type SandboxPage } from '../support/sandbox';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { leaveCustomEnvironment, useSandboxEnvironment } from '../support/sandboxSuite';
import { waitFor } from '../support/waitFor';
import { clearCustomersFilter, extensionTrees } from './treeWalk';

// Bundled to out/test/suite/: the repository root is three folders up.
const CSV_FIXTURE = path.resolve(__dirname, '../../../test/fixtures/customers-tr-excel.csv');

interface CustomerRow {
  ID: number;
  Name: string;
  TaxNumber: string;
  City: string | null;
}

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(Settings.section);
}

function label(node: TreeNode): string {
  const l = node.treeItem().label;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

function description(node: TreeNode): string {
  const d = node.treeItem().description;
  return typeof d === 'string' ? d : '';
}

function iconId(node: TreeNode): string | undefined {
  const icon = node.treeItem().iconPath;
  return icon instanceof vscode.ThemeIcon ? icon.id : undefined;
}

const isCustomer = (n: TreeNode) => /\/customer-\d+$/.test(n.id);
const isMore = (n: TreeNode) => n.id.endsWith('/~more');
const isError = (n: TreeNode) => n.id.endsWith('/~error');

suite('Sidebar trees', function () {
  this.timeout(60_000);
  let sandbox: SandboxHandle;
  let api: NilveraExtensionApi;
  let trees: NilveraTrees;
  const prompts = new ScriptedPrompts();
  let restorePrompts: () => void = () => undefined;
  let tmp: string;

  async function sandboxApi<T>(method: string, apiPath: string, body?: unknown): Promise<T> {
    const res = await fetch(sandbox.url + apiPath, {
      method,
      headers: { Authorization: `Bearer ${sandbox.keys.full}`, Accept: 'application/json', ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    assert.ok(res.ok, `${method} ${apiPath} answered ${res.status}`);
    return (await res.json()) as T;
  }

  async function state(): Promise<{ counts: { customers: number }; documents: Array<{ ID: number; Name: string }>; identifications: Array<{ ID: number; Name: string; Value: string }>; certificates: Array<{ ID: number; SerialNo: string }>; mailing: Array<{ ModuleID: string; IsActive: boolean }>; company: { Name: string }; taxOffice: { UserName: string; Password: string } }> {
    return (await (await fetch(`${sandbox.url}/__sandbox/state`)).json()) as never;
  }

  /** GETs of /general/Customers (the list) the sandbox saw since the last reset. */
  /** The query of each customer-list request the sandbox has logged. */
  function listRequestQueries(): URLSearchParams[] {
    return sandbox.requestLog().filter((r) => r.method === 'GET' && /^\/general\/customers$/i.test(r.path)).map((r) => new URLSearchParams(r.query ?? ''));
  }

  function listRequests(): number {
    return listRequestQueries().length;
  }

  async function customerRows(): Promise<TreeNode[]> {
    return trees.customers.getChildren();
  }

  async function freshCustomers(): Promise<TreeNode[]> {
    trees.customers.refresh();
    return customerRows();
  }

  suiteSetup(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-views-'));
    sandbox = await startTestSandbox({ customers: 300 });
    api = await activateExtension();
    restorePrompts = api.testing.replacePrompts(prompts);
    trees = await extensionTrees();
    // Suites that ran before (the canary suite runs every command) may have left a search or sort.
    clearCustomersFilter(trees);
    await config().update(Settings.pageSize, 25, vscode.ConfigurationTarget.Global);
    await useSandboxEnvironment(api, sandbox);
  });

  suiteTeardown(async () => {
    restorePrompts();
    await leaveCustomEnvironment(api, Settings.pageSize);
    await sandbox.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  setup(() => {
    prompts.reset();
    sandbox.clearFaults();
    sandbox.resetRequestLog();
  });

  test('the first page shows page-size customers with name, tax number and city, plus "Load more"; concurrent expands share one request', async () => {
    // A view another suite left shown may still be reading its first page: only what comes after counts.
    await sandboxIdle(sandbox);
    trees.customers.refresh();
    sandbox.resetRequestLog();
    const [a, b, c] = await Promise.all([customerRows(), customerRows(), customerRows()]);
    assert.equal(listRequests(), 1, 'three expands at once must make one request');
    assert.deepEqual(a.map((n) => n.id), b.map((n) => n.id));
    assert.deepEqual(a.map((n) => n.id), c.map((n) => n.id));
    const expected = await sandboxApi<SandboxPage<CustomerRow>>('GET', '/general/Customers?Page=1&PageSize=25');
    const rows = a.filter(isCustomer);
    assert.equal(rows.length, 25);
    assert.deepEqual(rows.map(label), expected.Content.map((r) => r.Name));
    assert.equal(description(rows[0]), [expected.Content[0].TaxNumber, expected.Content[0].City].filter((v) => v).join(' · '));
    assert.equal(new Set(a.map((n) => n.id)).size, a.length, 'ids must be unique');
    assert.ok(isMore(a[a.length - 1]), 'the last row must be "Load more"');
    assert.equal(description(a[a.length - 1]), '25 of 300 shown');
    assert.match(trees.customersView.title ?? '', /300/);
    const tooltip = rows[0].treeItem().tooltip;
    assert.ok(tooltip instanceof vscode.MarkdownString && tooltip.value.includes(expected.Content[0].TaxNumber), 'the tooltip lists the details');
  });

  test('"Load more" appends the next page once, even when clicked twice, and redraws only the list', async () => {
    const first = await freshCustomers();
    const more = first.find(isMore)!;
    // Loads other views started earlier finish first, so their redraws are not counted here.
    await sandboxIdle(sandbox);
    sandbox.resetRequestLog();
    // Every redraw any Nilvera view announces while the clicks are handled.
    const redraws: string[] = [];
    const providers = { customers: trees.customers, documents: trees.documents, certificates: trees.certificates, identifications: trees.identifications, account: trees.account };
    const listeners = Object.entries(providers).map(([name, p]) => (p as NodeTreeProvider).onDidChangeTreeData((node) => redraws.push(`${name}:${node ? node.id : 'root'}`)));
    try {
      await Promise.all([vscode.commands.executeCommand(TreeCommands.loadMore, more), vscode.commands.executeCommand(TreeCommands.loadMore, more)]);
    } finally {
      for (const l of listeners) l.dispose();
    }
    assert.equal(listRequests(), 1, 'two clicks on "Load more" must fetch one page');
    assert.ok(redraws.length > 0, 'the customers list is redrawn');
    assert.deepEqual(redraws.filter((r) => r !== 'customers:root'), [], 'only the customers list (its view root) is redrawn, no other view');
    assert.deepEqual(sandbox.requestLog().map((r) => `${r.method} ${r.path}`), ['GET /general/Customers'], 'nothing else is reloaded');
    const after = await customerRows();
    const page2 = await sandboxApi<SandboxPage<CustomerRow>>('GET', '/general/Customers?Page=2&PageSize=25');
    const rows = after.filter(isCustomer);
    assert.equal(rows.length, 50);
    assert.deepEqual(rows.slice(25).map(label), page2.Content.map((r) => r.Name));
    assert.deepEqual(rows.slice(0, 25).map((n) => n.id), first.filter(isCustomer).map((n) => n.id), 'the first page stays as it was');
    assert.equal(description(after.find(isMore)!), '50 of 300 shown');
  });

  test('the last page has no "Load more"; every customer appears once', async () => {
    await config().update(Settings.pageSize, 100, vscode.ConfigurationTarget.Global);
    try {
      let rows = await freshCustomers();
      for (let i = 0; i < 5 && rows.some(isMore); i++) {
        await vscode.commands.executeCommand(TreeCommands.loadMore, rows.find(isMore));
        rows = await customerRows();
      }
      assert.equal(rows.filter(isCustomer).length, 300);
      assert.equal(rows.some(isMore), false);
      assert.equal(new Set(rows.map((n) => n.id)).size, rows.length);
    } finally {
      await config().update(Settings.pageSize, 25, vscode.ConfigurationTarget.Global);
    }
  });

  test('search sets the server-side filter, shows it in the description, and "Clear Search" removes it', async () => {
    const sample = (await sandboxApi<SandboxPage<CustomerRow>>('GET', '/general/Customers?Page=1&PageSize=1')).Content[0];
    const word = sample.Name.split(' ')[0];
    prompts.inputs = [word];
    await vscode.commands.executeCommand(TreeCommands.customersSearch);
    const rows = (await customerRows()).filter(isCustomer);
    const expected = await sandboxApi<SandboxPage<CustomerRow>>('GET', `/general/Customers?Page=1&PageSize=25&Search=${encodeURIComponent(word)}`);
    assert.deepEqual(rows.map(label), expected.Content.map((r) => r.Name));
    assert.ok(expected.TotalCount < 300, 'the search should narrow the list');
    assert.ok((trees.customersView.description ?? '').includes(word), `description: ${trees.customersView.description}`);
    assert.match(trees.customersView.title ?? '', new RegExp(`\\(${expected.TotalCount}\\)`));
    await vscode.commands.executeCommand(TreeCommands.customersClearSearch);
    assert.equal(trees.customersView.description, undefined);
    assert.equal((await customerRows()).filter(isCustomer).length, 25);
    assert.match(trees.customersView.title ?? '', /300/);
  });

  test('sort by a column and direction', async () => {
    prompts.picks = [(items) => items.find((i) => i.label === 'Name'), (items) => items.find((i) => i.label === 'Descending')];
    await vscode.commands.executeCommand(TreeCommands.customersSort);
    const rows = (await customerRows()).filter(isCustomer);
    const expected = await sandboxApi<SandboxPage<CustomerRow>>('GET', '/general/Customers?Page=1&PageSize=25&SortColumn=Name&SortType=DESC');
    assert.deepEqual(rows.map(label), expected.Content.map((r) => r.Name));
    assert.ok((trees.customersView.description ?? '').includes('Name'));
    prompts.picks = [(items) => items[items.length - 1]]; // server order again
    await vscode.commands.executeCommand(TreeCommands.customersSort);
    assert.equal(trees.customers.root.filter.sortColumn, undefined);
  });

  test('a failed load shows one error item with Retry; Retry loads the list', async () => {
    // A reload another view or an earlier test left running would take the queued fault first.
    await sandboxIdle(sandbox);
    sandbox.setFaults({ queue: ['500'], match: { method: 'GET', path: '^/general/customers$' } });
    const rows = await freshCustomers();
    assert.equal(rows.length, 1);
    assert.ok(isError(rows[0]));
    assert.match(label(rows[0]), /Could not load: .*500/);
    const item = rows[0].treeItem();
    assert.equal(item.command?.command, TreeCommands.retry);
    await vscode.commands.executeCommand(TreeCommands.retry, ...(item.command?.arguments ?? []));
    assert.equal((await customerRows()).filter(isCustomer).length, 25);
  });

  test('a failed later page keeps the rows shown and offers Retry for that page', async () => {
    const first = await freshCustomers();
    await sandboxIdle(sandbox);
    sandbox.setFaults({ queue: ['500'], match: { method: 'GET', path: '^/general/customers$' } });
    await vscode.commands.executeCommand(TreeCommands.loadMore, first.find(isMore));
    const failed = await customerRows();
    assert.equal(failed.filter(isCustomer).length, 25);
    const error = failed.find(isError);
    assert.ok(error, 'an error item must follow the rows');
    assert.equal(failed.some(isMore), false);
    await vscode.commands.executeCommand(TreeCommands.retry, ...(error.treeItem().command?.arguments ?? []));
    const after = await customerRows();
    assert.equal(after.filter(isCustomer).length, 50);
    assert.ok(after.some(isMore));
  });

  test('delete one customer after a confirmation that says it cannot be undone; cancelling deletes nothing', async () => {
    const rows = (await freshCustomers()).filter(isCustomer);
    const before = (await state()).counts.customers;
    prompts.answers = [() => undefined];
    await vscode.commands.executeCommand(TreeCommands.customersDelete, rows[0]);
    assert.equal((await state()).counts.customers, before, 'a dismissed confirmation must delete nothing');
    prompts.answers = [(actions) => actions[0]];
    await vscode.commands.executeCommand(TreeCommands.customersDelete, rows[0]);
    const confirm = prompts.messages.filter((m) => m.modal);
    assert.equal(confirm.length, 2);
    assert.ok(confirm[1].text.includes(label(rows[0])));
    assert.match(confirm[1].detail ?? '', /cannot be undone/);
    assert.equal((await state()).counts.customers, before - 1);
    assert.ok(sandbox.requestLog().some((r) => r.method === 'DELETE' && new RegExp(`/general/customers/${rows[0].id.split('-').pop()}$`, 'i').test(r.path)));
    const after = await customerRows();
    assert.equal(after.some((n) => n.id === rows[0].id), false, 'the deleted row must be gone');
  });

  test('"Delete selected" deletes several with DELETE /Customers/Bulk after naming the count', async () => {
    const rows = (await freshCustomers()).filter(isCustomer).slice(0, 3);
    const before = (await state()).counts.customers;
    prompts.answers = [(actions) => actions[0]];
    await vscode.commands.executeCommand(TreeCommands.customersDeleteSelected, rows[0], rows);
    assert.match(prompts.messages[0].text, /Delete 3 customers\?/);
    assert.equal((await state()).counts.customers, before - 3);
    assert.ok(sandbox.requestLog().some((r) => r.method === 'DELETE' && /\/general\/customers\/bulk$/i.test(r.path)));
    const ids = new Set((await customerRows()).map((n) => n.id));
    assert.ok(rows.every((r) => !ids.has(r.id)));
  });

  test('Edit opens the customer form for that customer; saving it refreshes the list with the new name', async () => {
    const row = (await freshCustomers()).filter(isCustomer)[0];
    const id = Number(row.id.split('-').pop());
    await vscode.commands.executeCommand(TreeCommands.customersEdit, row);
    const panels = await waitFor(async () => {
      const p = await vscode.commands.executeCommand<Array<{ recordKey: string }>>(FormCommands.inspect);
      return p?.some((x) => x.recordKey === `customer:${id}`) ? p : undefined;
    }, 'the customer form');
    assert.ok(panels.some((p) => p.recordKey === `customer:${id}`));
    const current = await sandboxApi<CustomerRow & Record<string, unknown>>('GET', `/general/Customers/${id}`);
    // The page sends the form's own fields only (the host drops a message with unknown ones).
    const formFields = ['TaxNumber', 'Name', 'TaxDepartment', 'IsExport', 'Address', 'District', 'City', 'Country', 'PostalCode', 'Phone', 'Fax', 'Email', 'WebSite'];
    const values: Record<string, string | boolean> = {};
    for (const f of formFields) values[f] = typeof current[f] === 'boolean' ? (current[f] as boolean) : String(current[f] ?? '');
    values.Name = `${current.Name} (edited)`;
    const answers = await waitFor(async () => {
      const replies = await vscode.commands.executeCommand<Array<{ type: string; ok?: boolean }>>(FormCommands.simulate, `customer:${id}`, { type: 'save', requestId: 1, values });
      return replies?.some((a) => a.type === 'response') ? replies : undefined;
    }, 'the form to answer the save');
    assert.ok(answers.some((a) => a.type === 'response' && a.ok), `the save failed: ${JSON.stringify(answers)}`);
    assert.equal((await sandboxApi<CustomerRow>('GET', `/general/Customers/${id}`)).Name, values.Name);
    await waitFor(async () => ((await customerRows()).some((n) => label(n) === values.Name) ? true : undefined), 'the tree to show the new name');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('"Check in registry" answers from GET /GlobalCompany/Check/TaxNumber; "Copy tax number" fills the clipboard', async () => {
    const row = (await freshCustomers()).filter(isCustomer)[0];
    const customer = await sandboxApi<CustomerRow>('GET', `/general/Customers/${row.id.split('-').pop()}`);
    const entries = await sandboxApi<Array<{ Name: string }>>('GET', `/general/GlobalCompany/Check/TaxNumber/${customer.TaxNumber}`);
    await vscode.commands.executeCommand(TreeCommands.customersCheckRegistry, row);
    const said = prompts.messages.find((m) => m.text.includes(customer.TaxNumber));
    assert.ok(said, 'no answer about the registry');
    if (entries.length > 0) {
      assert.match(said.text, /is a registered e-invoice user/);
      assert.ok(said.text.includes(entries[0].Name));
    } else assert.match(said.text, /is not a registered/);
    await vscode.commands.executeCommand(TreeCommands.customersCopyTaxNumber, row);
    assert.equal(await vscode.env.clipboard.readText(), customer.TaxNumber);
  });

  test('"Find by tax number" selects a loaded customer, opens one that is not loaded, and says when none matches', async () => {
    // A user's loaded rows come from a view shown earlier, now behind another side bar view: the
    // command brings the customers view back and selects the row. (Shown here, not left to the
    // activation suite, so the test holds when it runs alone.)
    await vscode.commands.executeCommand('nilvera.customers.focus');
    await waitFor(() => trees.customersView.visible || undefined, 'the customers view to be shown');
    const rows = (await freshCustomers()).filter(isCustomer);
    await vscode.commands.executeCommand('workbench.view.explorer');
    await waitFor(() => (trees.customersView.visible ? undefined : true), 'the customers view to be hidden');
    const loaded = await sandboxApi<CustomerRow>('GET', `/general/Customers/${rows[2].id.split('-').pop()}`);
    prompts.inputs = [loaded.TaxNumber];
    await vscode.commands.executeCommand(TreeCommands.customersFindByTaxNumber);
    await waitFor(() => (trees.customersView.selection.some((n) => n.id === rows[2].id) ? true : undefined), 'the row to be selected');
    await waitFor(() => trees.customersView.visible || undefined, 'the customers view to be shown again');

    const far = (await sandboxApi<SandboxPage<CustomerRow>>('GET', '/general/Customers?Page=10&PageSize=25')).Content[0];
    prompts.inputs = [far.TaxNumber];
    await vscode.commands.executeCommand(TreeCommands.customersFindByTaxNumber);
    const editor = await waitFor(() => vscode.window.activeTextEditor, 'the details editor');
    assert.ok(editor.document.getText().includes(far.TaxNumber));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    // A valid VKN that no customer has (the seed's tax numbers never start with 99999).
    const unknown = completeVkn('999999998');
    prompts.inputs = [unknown];
    await vscode.commands.executeCommand(TreeCommands.customersFindByTaxNumber);
    assert.ok(prompts.messages.some((m) => m.text.includes(unknown)), 'a message must say no customer matched');
  });

  test('"Quick search" searches as the user types; a superseded search is aborted', async () => {
    const sample = (await sandboxApi<SandboxPage<CustomerRow>>('GET', '/general/Customers?Page=1&PageSize=1')).Content[0];
    let firstAborted = false;
    let found: vscode.QuickPickItem[] = [];
    prompts.searchPickScript = async <T extends vscode.QuickPickItem>(options: SearchPickOptions<T>) => {
      const first = new AbortController();
      const pending = options.search(sample.Name.slice(0, 3), first.signal).catch((e: unknown) => {
        firstAborted = e instanceof Error;
        return [] as T[];
      });
      first.abort();
      await pending;
      const items = await options.search(sample.TaxNumber, new AbortController().signal);
      found = items;
      return items[0];
    };
    await vscode.commands.executeCommand('nilvera.customers.focus');
    const rowsBefore = (await freshCustomers()).filter(isCustomer);
    await vscode.commands.executeCommand(TreeCommands.customersQuickSearch);
    assert.ok(firstAborted, 'the aborted search must not resolve normally');
    assert.equal(found.length, 1);
    assert.equal(found[0].description, sample.TaxNumber);
    // The match is on the first page: it gets selected.
    assert.ok(rowsBefore.some((r) => label(r) === sample.Name));
    await waitFor(() => (trees.customersView.selection.some((n) => label(n) === sample.Name) ? true : undefined), 'the match to be selected');
  });

  test('import a Turkish Excel CSV: 16 rows created, 4 written to .rejected.csv with reasons', async () => {
    const source = path.join(tmp, 'musteriler.csv');
    fs.copyFileSync(CSV_FIXTURE, source);
    const before = (await state()).counts.customers;
    const summary = await vscode.commands.executeCommand<{ created: number; rejected: number; rejectedFile: string }>(TreeCommands.customersImport, vscode.Uri.file(source));
    assert.equal(summary.created, 16);
    assert.equal(summary.rejected, 4);
    assert.equal((await state()).counts.customers, before + 16);
    assert.equal(summary.rejectedFile, path.join(tmp, 'musteriler.rejected.csv'));
    const rejected = fs.readFileSync(summary.rejectedFile, 'utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    assert.equal(rejected.length, 5, rejected.join('\n'));
    assert.match(rejected[0], /;Reason$/);
    for (const tax of ['2940095702', '2596120531', '905978176', '49798834353']) assert.ok(rejected.some((l) => l.includes(tax)), `${tax} is not in the rejected file`);
    assert.ok(rejected.slice(1).every((l) => /checksum|digits/.test(l)), 'every rejected row carries its reason');
    const anadolu = await sandboxApi<CustomerRow>('GET', '/general/Customers/GetCustomerInfo/6656437912');
    assert.equal(anadolu.Name, 'Anadolu Gıda Sanayi ve Ticaret A.Ş.');
    assert.ok(prompts.messages.some((m) => /16 created, 4 rejected/.test(m.text)));
  });

  test('export writes every page of the current filter to CSV', async () => {
    prompts.inputs = ['Ltd'];
    await vscode.commands.executeCommand(TreeCommands.customersSearch);
    const expected = await sandboxApi<SandboxPage<CustomerRow>>('GET', '/general/Customers?Page=1&PageSize=1&Search=Ltd');
    assert.ok(expected.TotalCount > 25, 'the filter should span several pages');
    prompts.saveFile = vscode.Uri.file(path.join(tmp, 'export.csv'));
    // The view is visible since "Find by tax number" revealed a row: VS Code reloads it after the search.
    await requestsSettled(() => sandbox.requestLog().length);
    sandbox.resetRequestLog();
    await vscode.commands.executeCommand(TreeCommands.customersExport);
    assert.ok(fs.existsSync(path.join(tmp, 'export.csv')), `no export file; messages: ${JSON.stringify(prompts.messages)}`);
    // Parsed as CSV: addresses may hold line breaks inside quotes.
    const records = parseCsv(fs.readFileSync(path.join(tmp, 'export.csv'), 'utf8')).records;
    assert.equal(records[0].cells[0], 'TaxNumber');
    assert.equal(records.length - 1, expected.TotalCount);
    const exported = new Set(records.slice(1).map((r) => r.cells[0]));
    assert.equal(exported.size, expected.TotalCount, 'every customer once');
    assert.ok(prompts.messages.some((m) => m.level === 'info' && m.text === `Exported ${expected.TotalCount} customers to ${path.join(tmp, 'export.csv')}. Columns are separated by ",", as Excel expects with the display language en; the "nilvera.csv.separator" setting changes this.`), JSON.stringify(prompts.messages));
    // Only the export's own pages count: the view may still reload its page (PageSize 25) after the
    // search, later than any quiet period can wait for (ci on VS Code 1.100 saw it arrive mid-export).
    const exportPages = listRequestQueries().filter((q) => q.get('PageSize') === '100');
    assert.equal(exportPages.length, Math.ceil(expected.TotalCount / 100));
    assert.ok(exportPages.every((q) => q.get('Search') === 'Ltd'), 'every exported page uses the filter');
    await vscode.commands.executeCommand(TreeCommands.customersClearSearch);
  });

  test('company documents: add a file, the same name again shows the server\'s 409, delete after confirming', async () => {
    const file = path.join(tmp, 'imza-sirkuleri.pdf');
    fs.writeFileSync(file, Buffer.from('%PDF-1.4 test document'));
    await vscode.commands.executeCommand(TreeCommands.documentsAdd, vscode.Uri.file(file));
    assert.ok((await state()).documents.some((d) => d.Name === 'imza-sirkuleri.pdf'));
    const rows = await trees.documents.getChildren();
    const row = rows.find((n) => label(n) === 'imza-sirkuleri.pdf');
    assert.ok(row, `rows: ${rows.map(label).join(', ')}`);
    assert.match(description(row), /^pdf/);

    await vscode.commands.executeCommand(TreeCommands.documentsAdd, vscode.Uri.file(file));
    const error = prompts.messages.find((m) => m.level === 'error');
    assert.ok(error, 'a second add with the same name must show an error');
    assert.match(error.text, /already exists/);

    prompts.answers = [(actions) => actions[0]];
    await vscode.commands.executeCommand(TreeCommands.documentsDelete, row);
    assert.equal((await state()).documents.some((d) => d.Name === 'imza-sirkuleri.pdf'), false);
    assert.equal((await trees.documents.getChildren()).some((n) => label(n) === 'imza-sirkuleri.pdf'), false);
  });

  test('certificates: expired ones get an error icon and "expired", those within 30 days a warning; the password is never shown; delete', async () => {
    const rows = await trees.certificates.getChildren();
    const certs = await sandboxApi<Array<{ ID: number; SerialNo: string; EndDate: string; Password: string | null }>>('GET', '/general/Company/Certificate');
    assert.equal(rows.length, certs.length);
    const now = Date.now();
    for (const c of certs) {
      const row = rows.find((r) => label(r) === c.SerialNo)!;
      const days = (Date.parse(c.EndDate) - now) / 86_400_000;
      if (days < 0) {
        assert.equal(iconId(row), 'error', c.SerialNo);
        assert.match(description(row), /expired/);
      } else if (days <= 30) assert.equal(iconId(row), 'warning', c.SerialNo);
      else assert.equal(iconId(row), 'verified', c.SerialNo);
    }
    assert.ok(rows.some((r) => iconId(r) === 'error') && rows.some((r) => iconId(r) === 'warning'));
    // A certificate with a password: neither its row nor its details show it.
    await sandboxApi('POST', '/general/Company/Certificate', { SerialNo: 'PWTEST0001', Type: 'EIMZA', StartDate: '2026-01-01T00:00:00', EndDate: '2030-01-01T00:00:00', Password: 'gizli-parola-123', Description: 'test' });
    trees.certificates.refresh();
    const withPw = (await trees.certificates.getChildren()).find((r) => label(r) === 'PWTEST0001')!;
    const item = withPw.treeItem();
    assert.ok(!JSON.stringify({ d: item.description, t: (item.tooltip as vscode.MarkdownString).value }).includes('gizli-parola-123'));
    await vscode.commands.executeCommand(TreeCommands.certificatesDetails, withPw);
    const editor = await waitFor(() => vscode.window.activeTextEditor, 'the details editor');
    assert.ok(editor.document.getText().includes('PWTEST0001'));
    assert.ok(!editor.document.getText().includes('gizli-parola-123'), 'details must not show the password');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    prompts.answers = [(actions) => actions[0]];
    await vscode.commands.executeCommand(TreeCommands.certificatesDelete, withPw);
    assert.equal((await state()).certificates.some((c) => c.SerialNo === 'PWTEST0001'), false);
    assert.equal((await trees.certificates.getChildren()).some((r) => label(r) === 'PWTEST0001'), false);
  });

  test('identifications: add with one of the 21 types and a value, then delete', async () => {
    let offered: readonly vscode.QuickPickItem[] = [];
    prompts.picks = [
      (items) => {
        offered = items;
        return items.find((i) => i.label === 'TICARETSICILNO');
      },
    ];
    prompts.inputs = ['123456-5'];
    await vscode.commands.executeCommand(TreeCommands.identificationsAdd);
    assert.equal(offered.length, 21);
    const added = (await state()).identifications.find((i) => i.Name === 'TICARETSICILNO' && i.Value === '123456-5');
    assert.ok(added);
    const row = (await trees.identifications.getChildren()).find((n) => label(n) === 'TICARETSICILNO' && description(n) === '123456-5');
    assert.ok(row);
    prompts.answers = [(actions) => actions[0]];
    await vscode.commands.executeCommand(TreeCommands.identificationsDelete, row);
    assert.equal((await state()).identifications.some((i) => i.ID === added.ID), false);
  });

  test('a change whose connection breaks after sending: one POST, "may or may not have been saved", no Retry', async () => {
    prompts.picks = [(items) => items.find((i) => i.label === 'MERSISNO')];
    prompts.inputs = ['0123456789012345'];
    await requestsSettled(() => sandbox.requestLog().length);
    sandbox.resetRequestLog();
    sandbox.setFaults({ queue: ['reset'], match: { method: 'POST', path: '^/general/companyidentification$' } });
    try {
      await vscode.commands.executeCommand(TreeCommands.identificationsAdd);
    } finally {
      sandbox.clearFaults();
    }
    const posts = sandbox.requestLog().filter((r) => r.method === 'POST' && /companyidentification$/i.test(r.path.split('?')[0]));
    assert.equal(posts.length, 1, 'the POST must not be resent');
    const shown = prompts.messages.find((m) => m.level === 'error');
    assert.ok(shown, 'an error message is shown');
    assert.match(shown.text, /may or may not have been saved/);
    assert.ok(!shown.actions.includes('Retry'), `no Retry for a change of unknown outcome (actions: ${shown.actions.join(', ')})`);
  });

  test('each nilvera.account.show.<group> command of package.json shows that group of the Account view, selected', async () => {
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { commands: Array<{ command: string }> } };
    const ids = manifest.contributes.commands.map((c) => c.command).filter((id) => id.startsWith(ACCOUNT_GROUP_COMMAND_PREFIX));
    assert.ok(ids.length > 0, 'package.json declares no Account group command');
    for (const id of ids) {
      const wanted = `account/${id.slice(ACCOUNT_GROUP_COMMAND_PREFIX.length)}`;
      await vscode.commands.executeCommand(id);
      // The view reports its new selection a moment after reveal() settles.
      for (let i = 0; i < 50 && trees.accountView.selection[0]?.id !== wanted; i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(trees.accountView.selection[0]?.id, wanted, `${id} (messages: ${prompts.messages.map((m) => m.text).join(' | ')})`);
    }
  });

  test('account: company, modules, credits, alerts by type, campaigns with links, rates, mailing toggles, tax office without its password', async () => {
    trees.account.refresh();
    const groups = await trees.account.getChildren();
    const group = async (key: string) => {
      const shown = groups.find((g) => g.id === `account/${key}`);
      assert.ok(shown, `the Account view has no ${key} group`);
      return trees.account.getChildren(shown);
    };
    const s = await state();
    const company = await group('company');
    assert.equal(label(company[0]), s.company.Name);
    assert.equal(company[0].treeItem().command?.command, TreeCommands.accountOpenCompany);
    const credits = await sandboxApi<unknown[]>('GET', '/general/Credits');
    assert.equal((await group('credits')).length, credits.length);
    const alerts = await sandboxApi<Array<{ Type: string }>>('GET', '/general/Alerts');
    const alertRows = await group('alerts');
    assert.deepEqual(alertRows.map(iconId), alerts.map((a) => (a.Type === 'Error' ? 'error' : a.Type === 'Warning' ? 'warning' : 'info')));
    const campaigns = await group('campaigns');
    assert.ok(campaigns.some((c) => c.treeItem().command?.command === TreeCommands.accountOpenCampaign));
    // A campaign's row is named by its name, its tooltip by its subject.
    const served = await sandboxApi<Array<{ Name: string; Subject: string }>>('GET', '/general/Campaigns');
    assert.deepEqual(campaigns.map(label), served.map((c) => c.Name));
    const tips = campaigns.map((c) => (c.treeItem().tooltip as vscode.MarkdownString).value);
    assert.deepEqual(tips.map((t) => t.split('\n')[0]), served.map((c) => `**${c.Subject}**`));
    assert.equal((await group('exchangeRates')).length, 3);
    assert.ok((await group('modules')).length > 0);
    const taxOffice = await group('taxOffice');
    assert.equal(label(taxOffice[0]), s.taxOffice.UserName);
    assert.ok(!JSON.stringify(taxOffice[0].treeItem()).includes(s.taxOffice.Password), 'the tax office password must not be shown');

    const mailing = await group('mailing');
    const whatsapp = mailing.find((m) => label(m) === 'WhatsApp')!;
    const was = s.mailing.find((m) => m.ModuleID === 'WhatsApp')!.IsActive;
    await vscode.commands.executeCommand(TreeCommands.accountToggleMailing, whatsapp);
    assert.equal((await state()).mailing.find((m) => m.ModuleID === 'WhatsApp')!.IsActive, !was);
    const email = (await group('mailing')).find((m) => m.id.endsWith('mailing-Portal'))!;
    const emailWas = (await state()).mailing.find((m) => m.ModuleID === 'Portal')!.IsActive;
    await vscode.commands.executeCommand(TreeCommands.accountToggleMailing, email);
    assert.equal((await state()).mailing.find((m) => m.ModuleID === 'Portal')!.IsActive, !emailWas);
    const refreshed = await group('mailing');
    assert.equal(description(refreshed.find((m) => label(m) === 'WhatsApp')!), !was ? 'on' : 'off');
    // A screen reader hears each row's channel and state, and the checkbox has a name (issue 41).
    const servedMailing = (await state()).mailing;
    for (const row of refreshed) {
      const item = row.treeItem();
      const setting = servedMailing.find((m) => row.id.endsWith(`mailing-${m.ModuleID}`))!;
      assert.match(item.accessibilityInformation?.label ?? '', new RegExp(`^${label(row)} sending: ${setting.IsActive ? 'on' : 'off'}\\. `), label(row));
      const box = item.checkboxState;
      if (box !== undefined) assert.equal(typeof box === 'object' ? box.accessibilityInformation?.label : undefined, `${label(row)} sending`);
    }
    assert.ok(refreshed.some((r) => label(r) === 'SMS' && /^SMS sending: (on|off)\. /.test(r.treeItem().accessibilityInformation?.label ?? '')), 'the SMS row says SMS and its state');
    for (const row of alertRows) assert.match(row.treeItem().accessibilityInformation?.label ?? '', /^(Error|Warning|Information): /);
  });

  test('account view: one refresh button, which reloads the tree and the status bar credits', async () => {
    const menus = (vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { menus: Record<string, Array<{ command: string; when?: string; group?: string }>> } }).contributes.menus;
    const buttons = menus['view/title'].filter((m) => m.when?.startsWith('view == nilvera.account') && m.group?.startsWith('navigation'));
    assert.deepEqual(buttons.map((b) => b.command).filter((c) => c.endsWith('.refresh')), [TreeCommands.accountRefresh]);
    await trees.account.getChildren();
    await requestsSettled(() => sandbox.requestLog().length);
    sandbox.resetRequestLog();
    await vscode.commands.executeCommand(TreeCommands.accountRefresh);
    await trees.account.getChildren();
    const credits = sandbox.requestLog().filter((r) => r.method === 'GET' && /^\/general\/credits$/i.test(r.path.split('?')[0]));
    assert.ok(credits.length >= 1, 'the refresh asks for the credits again');
  });

  test('a refresh reaches VS Code: the shown customers view reads its rows again, and its title counts a customer created on the server', async () => {
    const counted = () => Number(/\(([\d.,]+)\)$/.exec(trees.customersView.title ?? '')?.[1].replace(/\D/g, '') ?? NaN);
    // Every read of the list by VS Code (through the views' lazy provider) is counted; the test reads past the count.
    const provider = trees.customers;
    const read = provider.getChildren.bind(provider);
    let reads = 0;
    provider.getChildren = async (node?: TreeNode) => {
      const rows = await read(node);
      if (!node) reads++;
      return rows;
    };
    let fired = 0;
    const listening = provider.onDidChangeTreeData(() => fired++);
    try {
      provider.root.setFilter({ search: '', sortColumn: undefined, sortType: 'ASC' });
      await read();
      const before = (await state()).counts.customers;
      assert.equal(counted(), before, `title: ${trees.customersView.title}`);
      await vscode.commands.executeCommand('nilvera.customers.focus');
      await waitFor(() => trees.customersView.visible || undefined, 'the customers view to be shown');
      // Shown for the first time, or told of the new filter: VS Code reads the list before going on.
      await waitFor(() => reads > 0 || undefined, 'VS Code to read the shown view');
      reads = 0;
      fired = 0;
      await sandboxApi('POST', '/general/Customers', [{ TaxNumber: completeVkn('979797001'), Name: 'Görünüm Yenileme A.Ş.' }]);
      await vscode.commands.executeCommand(TreeCommands.customersRefresh);
      assert.ok(fired > 0, 'the customers provider announced the change');
      await waitFor(() => (counted() === before + 1 && reads > 0) || undefined, 'VS Code to read the view again after the refresh');
    } finally {
      listening.dispose();
      Reflect.deleteProperty(provider, 'getChildren');
    }
  });

  test('dataChanged refreshes only the named part; without a key the views are empty and make no request', async () => {
    await customerRows();
    await trees.documents.getChildren();
    // Views that earlier tests left expanded may still be loading: let the log go quiet first.
    await requestsSettled(() => sandbox.requestLog().length);
    sandbox.resetRequestLog();
    api.testing.services.dataChanged('documents');
    await trees.documents.getChildren();
    await customerRows();
    const paths = sandbox.requestLog().map((r) => r.path.split('?')[0].toLowerCase());
    assert.deepEqual(paths, ['/general/companydocuments']);

    const services = api.testing.services;
    await services.keys.delete(services.secretName('custom'));
    try {
      sandbox.resetRequestLog();
      trees.refreshAll();
      assert.deepEqual(await customerRows(), []);
      assert.deepEqual(await trees.account.getChildren(), []);
      assert.equal(sandbox.requestLog().length, 0);
    } finally {
      await services.keys.store(services.secretName('custom'), sandbox.keys.full);
    }
  });
});
