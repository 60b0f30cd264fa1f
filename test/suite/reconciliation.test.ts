// Reconciliation in a real extension host against an in-process sandbox (Custom URL environment):
// online (bulk lookup, requests counted in the sandbox log) and offline (lists downloaded through
// the command), registry changes through the control endpoint and the "changes" they produce, the
// tree's groups and paging, the CSV export and Open Customer. Expectations come from the sandbox's
// customer list and its single-taxpayer endpoint, not from the code under test.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FormCommands, PaletteCommands, ReconciliationCommands } from '../../src/constants';
import type { NilveraExtensionApi } from '../../src/extension';
import { activateExtension } from '../support/extension';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import type { ReconciliationReport } from '../../src/reconciliation/report';
import type { ReconciliationTestHook } from '../../src/reconciliation/register';
import { GROUP_PAGE, type CustomerNode, type GroupNode } from '../../src/reconciliation/tree';
import { isValidTckn, isValidVkn } from '../../src/domain/taxId';
import { startTestSandbox, type SandboxHandle } from '../support/sandbox';
import { useSandboxEnvironment } from '../support/sandboxSuite';


interface Listed {
  ID: number;
  TaxNumber: string;
  Name: string;
}

interface Expected {
  status: 'user' | 'notUser' | 'invalid';
  activeAliases: string[];
}

suite('Reconciliation', function () {
  this.timeout(180_000);
  let sandbox: SandboxHandle;
  let api: NilveraExtensionApi;
  let hook: ReconciliationTestHook;
  let tmp: string;
  const prompts = new ScriptedPrompts();
  let restorePrompts: () => void = () => undefined;

  async function get(apiPath: string): Promise<{ status: number; body: unknown }> {
    const res = await fetch(sandbox.url + apiPath, { headers: { Authorization: `Bearer ${sandbox.keys.full}`, Accept: 'application/json' } });
    return { status: res.status, body: res.status === 200 ? await res.json() : undefined };
  }
  async function control(body: unknown): Promise<void> {
    const res = await fetch(`${sandbox.url}/__sandbox/registry`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(res.status, 200, await res.text());
  }

  /** Every customer and what the registry says about it, one GET per taxpayer. */
  async function expectation(): Promise<{ customers: Listed[]; byId: Map<number, Expected> }> {
    const customers: Listed[] = [];
    for (let page = 1; ; page++) {
      const content = ((await get(`/general/Customers?Page=${page}&PageSize=100`)).body as { Content: Listed[] }).Content;
      customers.push(...content);
      if (content.length < 100) break;
    }
    const byId = new Map<number, Expected>();
    for (const c of customers) {
      if (!(c.TaxNumber.length === 10 ? isValidVkn(c.TaxNumber) : isValidTckn(c.TaxNumber))) {
        byId.set(c.ID, { status: 'invalid', activeAliases: [] });
        continue;
      }
      const info = await get(`/general/GlobalCompany/GetGlobalCustomerInfo/${c.TaxNumber}?globalUserType=Invoice`);
      const active = info.status === 404 ? [] : (info.body as { Aliases: Array<{ Name: string; DeletionTime: string | null }> }).Aliases.filter((a) => !a.DeletionTime).map((a) => a.Name);
      byId.set(c.ID, { status: active.length ? 'user' : 'notUser', activeAliases: active });
    }
    return { customers, byId };
  }

  function assertGroups(report: ReconciliationReport, expected: Map<number, Expected>): void {
    const ids = (status: Expected['status']) => [...expected].filter(([, e]) => e.status === status).map(([id]) => id).sort((a, b) => a - b);
    assert.deepEqual(report.users.map((r) => r.customerId), ids('user'));
    assert.deepEqual(report.notUsers.map((r) => r.customerId), ids('notUser'));
    assert.deepEqual(report.invalid.map((r) => r.customerId), ids('invalid'));
    assert.equal(report.unchecked.length, 0);
    for (const r of report.users) assert.ok(r.pkAlias && expected.get(r.customerId)!.activeAliases.includes(r.pkAlias), `${r.customerId}: ${r.pkAlias}`);
    for (const r of report.invalid) assert.match(r.reason?.problem ?? '', /checksum|length|tcknLeadingZero/);
    // The tree shows the same counts in its group labels.
    const labels = (hook.tree.getChildren() as GroupNode[]).map((g) => g.label);
    assert.ok(labels.includes(`e-Invoice users (${report.users.length})`), labels.join(' | '));
    assert.ok(labels.includes(`Not e-invoice users (${report.notUsers.length})`), labels.join(' | '));
    assert.ok(labels.includes(`Invalid tax numbers (${report.invalid.length})`), labels.join(' | '));
  }

  const run = (source: 'online' | 'offline') => vscode.commands.executeCommand<ReconciliationReport>(ReconciliationCommands.run, { source });
  const download = async () => {
    for (const aliasType of ['PK', 'GB'] as const) {
      const outcome = await vscode.commands.executeCommand(PaletteCommands.registryDownload, { aliasType, userType: 'Invoice', folder: path.join(tmp, 'lists') });
      assert.ok(outcome, `download of ${aliasType} failed: ${JSON.stringify(prompts.messages.slice(-2))}`);
    }
  };
  const changesOf = (report: ReconciliationReport) => ({
    newly: report.changes?.newlyRegistered.map((r) => r.customerId).sort((a, b) => a - b),
    alias: report.changes?.aliasChanged.map((c) => [c.row.customerId, c.previousAlias, c.row.pkAlias]),
    gone: report.changes?.deregistered.map((r) => r.customerId).sort((a, b) => a - b),
  });

  suiteSetup(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-recon-suite-'));
    sandbox = await startTestSandbox({ customers: 300, invalidCustomers: 12, registry: 20_000, seed: 21 });
    api = await activateExtension();
    restorePrompts = api.testing.replacePrompts(prompts);
    await useSandboxEnvironment(api, sandbox);
    hook = (await vscode.commands.executeCommand<ReconciliationTestHook>(ReconciliationCommands.testHook))!;
    fs.rmSync(hook.snapshotFile(sandbox.url), { force: true });
  });

  suiteTeardown(async () => {
    restorePrompts();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const services = api.testing.services;
    await services.keys.delete(services.secretName('custom'));
    await sandbox.close();
  });

  let customers: Listed[] = [];
  let expected: Map<number, Expected>;

  test('first run, online: every customer in its group, bulk lookups in batches of 50, "first run" in the changes', async () => {
    ({ customers, byId: expected } = await expectation());
    assert.equal(customers.length, 312);
    sandbox.resetRequestLog();
    const report = await run('online');
    assert.ok(report, JSON.stringify(prompts.messages));
    const log = sandbox.requestLog();
    const bulk = log.filter((r) => r.method === 'POST' && /GetGlobalCustomerInfo$/.test(r.path)).length;
    const pages = log.filter((r) => r.method === 'GET' && /\/general\/Customers$/.test(r.path)).length;
    assert.equal(pages, 4);
    const validPerPage = [0, 1, 2, 3].map((p) => customers.slice(p * 100, p * 100 + 100).filter((c) => expected.get(c.ID)!.status !== 'invalid').length);
    assert.equal(bulk, validPerPage.reduce((n, v) => n + Math.ceil(v / 50), 0));
    assert.equal(report.lookupRequests, bulk);
    assert.equal(report.source, 'online');
    assertGroups(report, expected);
    assert.equal(report.invalid.length, 12);
    assert.equal(report.changes, undefined);
    const changes = (hook.tree.getChildren() as GroupNode[]).find((g) => g.key === 'changes')!;
    assert.deepEqual(hook.tree.getChildren(changes).map((n) => (n as { label: string }).label), ['First run: no previous result']);
    assert.ok(fs.existsSync(hook.snapshotFile(sandbox.url)), 'the snapshot is kept');
  });

  test('offline, with the lists downloaded through the command: no lookup request, same groups, no changes', async () => {
    await download();
    sandbox.resetRequestLog();
    const report = await run('offline');
    assert.equal(report.source, 'offline');
    assert.equal(sandbox.requestLog().filter((r) => /GlobalCompany/.test(r.path)).length, 0, 'offline means no registry request');
    assertGroups(report, expected);
    assert.deepEqual(changesOf(report), { newly: [], alias: [], gone: [] });
    assert.match((hook.tree.getChildren() as GroupNode[]).find((g) => g.key === 'changes')!.label, /^Changes since .+ \(0\)$/);
  });

  test('registry changes on the sandbox show as changes: online at once, offline after a new download', async () => {
    const users = customers.filter((c) => expected.get(c.ID)!.status === 'user');
    const nonUsers = customers.filter((c) => expected.get(c.ID)!.status === 'notUser');
    const [gone, moved, gone2, moved2] = users;
    const [joined, joined2] = nonUsers;
    await control({ action: 'deregister', TaxNumber: gone.TaxNumber });
    await control({ action: 'changeAlias', TaxNumber: moved.TaxNumber, Alias: 'urn:mail:yenipk@degisti.com.tr' });
    await control({ action: 'register', TaxNumber: joined.TaxNumber, Title: joined.Name });

    // The downloaded lists do not know yet: an offline run sees no change.
    const stale = await run('offline');
    assert.deepEqual(changesOf(stale), { newly: [], alias: [], gone: [] });

    const online = await run('online');
    ({ byId: expected } = await expectation());
    assertGroups(online, expected);
    const oldAlias = stale.users.find((r) => r.customerId === moved.ID)!.pkAlias;
    assert.deepEqual(changesOf(online), { newly: [joined.ID], alias: [[moved.ID, oldAlias, 'urn:mail:yenipk@degisti.com.tr']], gone: [gone.ID] });
    const changeGroup = (hook.tree.getChildren() as GroupNode[]).find((g) => g.key === 'changes')!;
    const subs = hook.tree.getChildren(changeGroup) as GroupNode[];
    assert.deepEqual(subs.map((g) => g.label), ['Newly registered (1)', 'Alias changed (1)', 'Deregistered (1)']);
    const aliasRow = hook.tree.getTreeItem(hook.tree.getChildren(subs[1])[0]!);
    assert.equal(aliasRow.description, `${oldAlias} → urn:mail:yenipk@degisti.com.tr`);

    // A second round, seen through a fresh download.
    await control({ action: 'deregister', TaxNumber: gone2.TaxNumber });
    await control({ action: 'changeAlias', TaxNumber: moved2.TaxNumber, Alias: 'urn:mail:ikincipk@degisti.com.tr' });
    await control({ action: 'register', TaxNumber: joined2.TaxNumber });
    await download();
    const offline = await run('offline');
    ({ byId: expected } = await expectation());
    assertGroups(offline, expected);
    const oldAlias2 = online.users.find((r) => r.customerId === moved2.ID)!.pkAlias;
    assert.deepEqual(changesOf(offline), { newly: [joined2.ID], alias: [[moved2.ID, oldAlias2, 'urn:mail:ikincipk@degisti.com.tr']], gone: [gone2.ID] });
  });

  test('groups are paged in the tree; rows carry alias or reason; Copy PK Alias and Open Customer work', async () => {
    const users = (hook.tree.getChildren() as GroupNode[]).find((g) => g.key === 'users')!;
    const total = hook.tree.report!.users.length;
    assert.ok(total > GROUP_PAGE, `${total} users`);
    const first = hook.tree.getChildren(users);
    assert.equal(first.length, GROUP_PAGE + 1);
    const more = first.at(-1);
    // The tree's objects come from the extension's bundle, so no instanceof against this bundle's classes.
    assert.ok(more && 'group' in more && !('row' in more), 'the last row is "Load more"');
    await vscode.commands.executeCommand(ReconciliationCommands.loadMore, more);
    assert.equal(hook.tree.getChildren(users).length, total);

    const userNode = first[0] as CustomerNode;
    assert.equal(hook.tree.getTreeItem(userNode).description, userNode.row.pkAlias);
    const invalidGroup = (hook.tree.getChildren() as GroupNode[]).find((g) => g.key === 'invalid')!;
    const invalidItem = hook.tree.getTreeItem(hook.tree.getChildren(invalidGroup)[0]!);
    assert.match(String(invalidItem.description), /should be \d( and \d)? for these first (nine|ten) digits/);

    assert.equal(await vscode.commands.executeCommand(ReconciliationCommands.copyPkAlias, userNode), userNode.row.pkAlias);
    assert.equal(await vscode.env.clipboard.readText(), userNode.row.pkAlias);

    const invalidNode = hook.tree.getChildren(invalidGroup)[0] as CustomerNode;
    await vscode.commands.executeCommand(ReconciliationCommands.openCustomer, invalidNode);
    const invalidId = invalidNode.row.customerId;
    const panels = (await vscode.commands.executeCommand<Array<{ recordKey: string }>>(FormCommands.inspect)) ?? [];
    assert.ok(panels.some((p) => p.recordKey === `customer:${invalidId}`), JSON.stringify(panels.map((p) => p.recordKey)));
  });

  test('export writes every customer with status, alias, reason and change to the chosen CSV file', async () => {
    const report = hook.tree.report!;
    const target = path.join(tmp, 'reconciliation.csv');
    prompts.saveFile = vscode.Uri.file(target);
    const outcome = await vscode.commands.executeCommand<{ written: number }>(ReconciliationCommands.export);
    assert.equal(outcome?.written, report.totalCustomers);
    const text = fs.readFileSync(target, 'utf8');
    assert.ok(text.startsWith('\uFEFFStatus,Customer ID,Name,Tax Number,PK Alias,Registry Title,Reason,Change,Previous Alias\r\n'));
    const lines = text.slice(1).trimEnd().split('\r\n');
    assert.equal(lines.length, report.totalCustomers + 1);
    const moved = report.changes!.aliasChanged[0]!;
    const movedLine = lines.find((l) => l.includes(`,${moved.row.customerId},`) && l.startsWith('e-Invoice user,'));
    assert.ok(movedLine, 'the moved customer has a line');
    assert.ok(movedLine.endsWith(`,Alias changed,${moved.previousAlias}`), movedLine);
    const invalid = report.invalid[0]!;
    assert.ok(lines.some((l) => l.startsWith(`Invalid tax number,${invalid.customerId},`) && l.includes('for these first nine digits')));
  });
});
