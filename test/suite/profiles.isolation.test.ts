// Nothing crosses between profiles, in a real extension host: two sandboxes stand for two companies
// (A and B, each with its own canary key, company and customers). Profiles are added through "Add
// Profile", then the trees, the account view and the credits run under A, B, then A again. Each
// sandbox's request log shows requests only while its own profile is active, and none rejected
// (a sandbox answers 401 to any key but its own); no tree shows the other company's records; a slow
// answer for A that arrives after the switch to B is dropped.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Commands, ProfileCommands, Settings } from '../../src/constants';
import type { NilveraExtensionApi } from '../../src/extension';
import type { NilveraClient } from '../../src/api';
import { profileSecretName } from '../../src/shell/profileStore';
import type { ProfileSwitchedError } from '../../src/shell/staleAnswers';
import type { TreeNode } from '../../src/views/treeNode';
import type { ListedCompanyNode } from '../../src/views/records/accountNodes';
import type { NilveraTrees } from '../../src/views/trees';
import { activateExtension } from '../support/extension';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { sandboxIdle } from '../support/requestsSettled';
import { startTestSandbox, type SandboxHandle } from '../support/sandbox';
import { startCompaniesSandbox } from '../../src/sandbox/companies';
import { suiteLog } from './report';
import { clearCustomersFilter, extensionTrees, walkViews } from './treeWalk';
import { FormCommands } from '../../src/constants';
import type { HostMessage } from '../../src/webviews/protocol';

const KEY_A = 'CANARYA'.padEnd(64, 'A');
const KEY_B = 'CANARYB'.padEnd(64, 'B');

function label(node: TreeNode): string {
  const l = node.treeItem().label;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

interface Company {
  sandbox: SandboxHandle;
  key: string;
  name: string;
  taxNumber: string;
  customers: Set<string>;
  profileId?: string;
}

async function sandboxGet<T>(sandbox: SandboxHandle, key: string, apiPath: string): Promise<T> {
  const res = await fetch(`${sandbox.url}${apiPath}`, { headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' } });
  assert.equal(res.status, 200);
  return (await res.json()) as T;
}

suite('Profiles: nothing crosses between two companies', function () {
  this.timeout(120_000);
  let api: NilveraExtensionApi;
  let trees: NilveraTrees;
  let restorePrompts: () => void;
  const prompts = new ScriptedPrompts();
  const companies: Record<'A' | 'B', Company> = {} as never;
  const counts: Record<string, number> = {};

  async function company(name: 'A' | 'B', seed: number, key: string): Promise<Company> {
    const sandbox = await startTestSandbox({ key, seed, customers: 40 });
    const info = await sandboxGet<{ Name: string; TaxNumber: string }>(sandbox, key, '/general/Company');
    const page = await sandboxGet<{ Content: Array<{ Name: string }> }>(sandbox, key, '/general/Customers?Page=1&PageSize=100');
    return { sandbox, key, name: `${name}: ${info.Name}`, taxNumber: info.TaxNumber, customers: new Set(page.Content.map((c) => c.Name)) };
  }

  async function addProfile(c: Company): Promise<void> {
    prompts.picks.push((items) => items.find((i) => (i as { environment?: string }).environment === 'custom'));
    prompts.inputs.push(c.sandbox.url, c.key, c.name);
    const before = new Set(api.testing.services.profiles.store.all().map((p) => p.id));
    await vscode.commands.executeCommand(ProfileCommands.add);
    const added = api.testing.services.profiles.store.all().find((p) => !before.has(p.id));
    assert.ok(added, `"Add Profile" stored no profile for ${c.name}: ${JSON.stringify(prompts.messages)}`);
    assert.equal(added.taxNumber, c.taxNumber, 'the tax number comes from GET /Company with the new key');
    c.profileId = added.id;
  }

  /** Runs the views and commands under the active profile; checks that they show `c` and only `c`. */
  async function exercise(c: Company, other: Company, phase: string): Promise<void> {
    const { services } = api.testing;
    assert.equal(services.activeProfile().id, c.profileId);
    c.sandbox.resetRequestLog();
    other.sandbox.resetRequestLog();
    // The other company's server answers slowly: a request that reaches it is still in flight (and
    // not in its log yet) well after the views here have loaded; the wait below counts it.
    other.sandbox.setFaults({ latencyMs: 1_000 });
    try {
      await exerciseViews(c, other, phase);
    } finally {
      other.sandbox.clearFaults();
    }
    const own = c.sandbox.requestLog();
    const foreign = other.sandbox.requestLog();
    assert.ok(own.length >= 4, `${phase}: expected the views' requests at ${c.name}'s origin`);
    assert.deepEqual(own.filter((r) => r.status === 401), [], `${phase}: a request at ${c.name}'s origin carried another key`);
    assert.deepEqual(foreign, [], `${phase}: requests went to the other company's origin while ${c.name} was active`);
    counts[`${phase} key ${c.name[0]} at origin ${c.name[0]}`] = own.length;
    counts[`${phase} any key at origin ${other.name[0]}`] = foreign.length;
  }

  /** The views, the account view, the credits and a client call, then every request of both origins answered. */
  async function exerciseViews(c: Company, other: Company, phase: string): Promise<void> {
    const { services } = api.testing;
    trees.refreshAll();
    // Every view, every group expanded (documents, certificates, identifications, the whole account).
    const walked = await walkViews(trees, 0);
    assert.ok(walked.account.length > 5 && walked.certificates.length > 0, `${phase}: the views show nothing`);
    const rows = await trees.customers.getChildren();
    const names = rows.map(label).filter((n) => c.customers.has(n) || other.customers.has(n));
    assert.ok(names.length > 0, `${phase}: the customers tree shows none of ${c.name}'s customers`);
    assert.deepEqual(names.filter((n) => other.customers.has(n) && !c.customers.has(n)), [], `${phase}: a customer of the other company is shown`);
    const groups = await trees.account.getChildren();
    const companyRows = await trees.account.getChildren(groups.find((g) => g.id === 'account/company'));
    assert.equal(label(companyRows[0]), c.name.slice(3), `${phase}: the account view shows the other company`);
    assert.equal(companyRows[0].treeItem().description, c.taxNumber);
    await vscode.commands.executeCommand(Commands.creditsRefresh);
    const client = (await services.client()) as unknown as NilveraClient;
    assert.equal((await client.company.get()).TaxNumber, c.taxNumber);
    await sandboxIdle([c.sandbox, other.sandbox]);
  }

  suiteSetup(async () => {
    api = await activateExtension();
    restorePrompts = api.testing.replacePrompts(prompts);
    trees = await extensionTrees();
    clearCustomersFilter(trees);
    companies.A = await company('A', 11, KEY_A);
    companies.B = await company('B', 12, KEY_B);
    assert.notEqual(companies.A.taxNumber, companies.B.taxNumber, 'the two sandboxes must be two companies');
  });

  suiteTeardown(async () => {
    const { services } = api.testing;
    for (const c of Object.values(companies)) {
      if (c.profileId) {
        await services.keys.delete(profileSecretName(c.profileId));
        await services.profiles.store.remove(c.profileId);
      }
    }
    services.profiles.followSettings();
    restorePrompts();
    suiteLog(`[profiles] request-log counts: ${JSON.stringify(counts)}`);
    for (const c of Object.values(companies)) await c.sandbox.close();
    await api.testing.state.refresh();
  });

  test('"Add Profile" checks each key with GET /Company and makes the new profile active', async () => {
    await addProfile(companies.A);
    assert.equal(api.testing.services.activeProfile().id, companies.A.profileId);
    await addProfile(companies.B);
    assert.equal(api.testing.services.activeProfile().id, companies.B.profileId);
    assert.equal(prompts.messages.filter((m) => m.level === 'error').length, 0);
    // The environment setting was not touched: profiles are per window.
    assert.notEqual(vscode.workspace.getConfiguration(Settings.section).get(Settings.environment), 'custom');
  });

  test('trees, account view and credits under A, then B, then A again: each origin sees only its own key and company', async () => {
    const { A, B } = companies;
    api.testing.services.activeProfile(); // follows the settings first, as every request does
    const before = api.testing.services.profiles.generation();
    await vscode.commands.executeCommand(ProfileCommands.switch, A.profileId);
    await exercise(A, B, 'A1');
    await vscode.commands.executeCommand(ProfileCommands.switch, B.profileId);
    await exercise(B, A, 'B');
    await vscode.commands.executeCommand(ProfileCommands.switch, A.profileId);
    await exercise(A, B, 'A2');
    assert.equal(api.testing.services.profiles.generation(), before + 3, 'each switch starts a new generation');
    // With several profiles the status bar item switches the profile (company) on a click.
    assert.equal(api.testing.statusBar().snapshot().environmentCommand, ProfileCommands.switch);
    assert.match(api.testing.statusBar().snapshot().environmentText, new RegExp(A.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  });

  test('an open form belongs to the profile it was opened in: named in its title, and after a switch it neither loads nor saves', async () => {
    const { A, B } = companies;
    type Panel = { profileId: string; recordKey: string; title: string };
    const panels = async () => ((await vscode.commands.executeCommand<Panel[]>(FormCommands.inspect)) ?? []).filter((p) => p.recordKey === 'company');
    const send = async (message: Record<string, unknown>, profileId: string) =>
      (await vscode.commands.executeCommand<HostMessage[] | undefined>(FormCommands.simulate, 'company', message, profileId)) ?? [];
    const companyName = (answers: HostMessage[]) => {
      const init = answers.find((m) => m.type === 'init') as { values?: Record<string, unknown> } | undefined;
      return init?.values?.Name;
    };
    await vscode.commands.executeCommand(ProfileCommands.switch, A.profileId);
    await vscode.commands.executeCommand(FormCommands.company);
    assert.equal(companyName(await send({ type: 'ready' }, A.profileId as string)), A.name.slice(3), "A's form shows A's company");
    const titleA = (await panels()).find((p) => p.profileId === A.profileId)?.title ?? '';
    assert.ok(titleA.endsWith(` · ${A.name}`), `the title names the profile: "${titleA}"`);

    await vscode.commands.executeCommand(ProfileCommands.switch, B.profileId);
    A.sandbox.resetRequestLog();
    B.sandbox.resetRequestLog();
    const saved = (await send({ type: 'save', requestId: 1, values: { Address: 'Written from the wrong profile 1' } }, A.profileId as string)).find((m) => m.type === 'response') as
      | { ok: boolean; formErrors?: string[] }
      | undefined;
    assert.equal(saved?.ok, false, "saving A's form while B is active must be refused");
    assert.match(saved?.formErrors?.join(' ') ?? '', /belongs to the profile/);
    const reloaded = (await send({ type: 'reload', requestId: 2 }, A.profileId as string)).find((m) => m.type === 'response') as { ok: boolean } | undefined;
    assert.equal(reloaded?.ok, false, "A's form does not load B's record");
    await sandboxIdle([A.sandbox, B.sandbox]);
    // B's views reload after the switch (reads at B's origin); nothing reaches A's, and nothing is written.
    assert.deepEqual(A.sandbox.requestLog(), [], "the refused form sent nothing to A's account");
    assert.deepEqual(B.sandbox.requestLog().filter((r) => r.method !== 'GET'), [], "the refused form wrote nothing to B's account");

    // Under B the company form is a panel of its own, showing B's company.
    await vscode.commands.executeCommand(FormCommands.company);
    assert.equal(companyName(await send({ type: 'ready' }, B.profileId as string)), B.name.slice(3));
    assert.deepEqual((await panels()).map((p) => p.profileId).sort(), [A.profileId, B.profileId].sort());
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) if (tab.input instanceof vscode.TabInputWebview && /company/i.test(tab.input.viewType)) await vscode.window.tabGroups.close(tab);
    }
  });

  test("a slow answer for A that arrives after the switch to B is dropped, silently; the trees show B's customers", async () => {
    const { A, B } = companies;
    const { services } = api.testing;
    await vscode.commands.executeCommand(ProfileCommands.switch, A.profileId);
    A.sandbox.setFaults({ latencyMs: 1500, match: { path: '^/general/(customers|company)$' } });
    try {
      const client = (await services.client()) as unknown as NilveraClient;
      const slowCall = client.company.get().then(
        () => 'answered',
        (e: unknown) => e,
      );
      trees.customers.refresh();
      const slowRows = trees.customers.getChildren();
      await new Promise((r) => setTimeout(r, 200));
      prompts.messages.length = 0;
      await vscode.commands.executeCommand(ProfileCommands.switch, B.profileId);
      const outcome = await slowCall;
      // The extension and this test are separate bundles: the error is recognised by its shape.
      const dropped = outcome as Partial<ProfileSwitchedError>;
      assert.ok(outcome instanceof Error && dropped.name === 'ProfileSwitchedError' && dropped.kind === 'cancelled', `A's answer must be dropped, got ${String(outcome)}`);
      const rows = (await slowRows).map(label);
      assert.ok(rows.some((n) => B.customers.has(n)), "the tree load started under A ends with B's customers");
      assert.deepEqual(rows.filter((n) => A.customers.has(n) && !B.customers.has(n)), [], "no customer of A after the switch");
      assert.equal(rows.some((n) => n.startsWith('Could not load')), false, 'a dropped answer is not an error item');
      // Through the command wrapper: silent.
      await vscode.commands.executeCommand(Commands.creditsRefresh);
      assert.deepEqual(prompts.messages.filter((m) => m.level === 'error'), []);
    } finally {
      A.sandbox.clearFaults();
    }
  });

  test('the Account view lists the caller\'s companies; "Add as Profile…" saves a key only for the company it belongs to; "Remove Profile" deletes the key', async () => {
    const { A, B } = companies;
    const { services } = api.testing;
    await vscode.commands.executeCommand(ProfileCommands.switch, A.profileId);
    trees.refreshAll();
    const groups = await trees.account.getChildren();
    const rows = (await trees.account.getChildren(groups.find((g) => g.id === 'account/companies'))) as ListedCompanyNode[];
    const listed = await sandboxGet<Array<{ TaxNumber: string }>>(A.sandbox, A.key, '/general/Company/List');
    assert.deepEqual(rows.map((r) => r.company.TaxNumber), listed.map((c) => c.TaxNumber), "the rows are A's company list");
    assert.equal(rows.some((r) => r.company.TaxNumber === B.taxNumber), false);
    const own = rows.find((r) => r.company.TaxNumber === A.taxNumber)!;
    const other = rows.find((r) => r.company.TaxNumber !== A.taxNumber)!;
    assert.equal(own.treeItem().contextValue, 'listedCompany');

    // A key of A typed for another company of the list: refused, nothing stored.
    const countBefore = services.profiles.store.all().length;
    prompts.messages.length = 0;
    prompts.inputs.push(A.key);
    await vscode.commands.executeCommand(ProfileCommands.addCompany, other);
    assert.equal(services.profiles.store.all().length, countBefore);
    assert.ok(prompts.messages.some((m) => m.level === 'error' && m.text.includes(other.company.TaxNumber ?? '?') && m.text.includes(A.taxNumber)), JSON.stringify(prompts.messages));
    assert.equal(prompts.messages.some((m) => m.text.includes(A.key)), false, 'the key is never shown');

    // A's own row: it already has a profile.
    prompts.messages.length = 0;
    await vscode.commands.executeCommand(ProfileCommands.addCompany, own);
    assert.ok(prompts.messages.some((m) => m.level === 'info' && m.text.includes(A.name)));

    // "Remove Profile" (confirmed) deletes A's record and key; the window returns to its settings' profile.
    prompts.answers.push((actions) => actions[0]);
    await vscode.commands.executeCommand(ProfileCommands.remove, A.profileId);
    assert.equal(services.profiles.store.get(A.profileId!), undefined);
    assert.equal(await services.keys.get(profileSecretName(A.profileId!)), undefined);
    assert.notEqual(services.activeProfile().id, A.profileId);

    // Now A's company has no profile: "Add as Profile…" with A's key checks the tax number and saves.
    await vscode.commands.executeCommand(ProfileCommands.switch, B.profileId);
    const bRows = (await trees.account.getChildren((await trees.account.getChildren()).find((g) => g.id === 'account/companies'))) as ListedCompanyNode[];
    const bOwn = bRows.find((r) => r.company.TaxNumber === B.taxNumber)!;
    prompts.answers.push(() => undefined);
    await vscode.commands.executeCommand(ProfileCommands.addCompany, bOwn);
    assert.ok(prompts.messages.some((m) => m.text.includes('already has a profile')), 'B has its profile');
    // B's profile forgets its tax number for a moment, so the success path runs against a real check.
    const tmpRecord = services.profiles.store.get(B.profileId!)!;
    await services.profiles.store.put({ ...tmpRecord, taxNumber: undefined });
    prompts.inputs.push(B.key);
    prompts.answers.push(() => undefined);
    const before = new Set(services.profiles.store.all().map((p) => p.id));
    await vscode.commands.executeCommand(ProfileCommands.addCompany, bOwn);
    const added = services.profiles.store.all().find((p) => !before.has(p.id));
    assert.ok(added, `no profile added: ${JSON.stringify(prompts.messages)}`);
    assert.equal(added.taxNumber, B.taxNumber);
    assert.equal(added.baseUrl, B.sandbox.url);
    assert.equal(await services.keys.get(profileSecretName(added.id)), B.key);
    await services.keys.delete(profileSecretName(added.id));
    await services.profiles.store.remove(added.id);
    await services.profiles.store.put(tmpRecord);
  });

  test('one sandbox address serving two companies: each profile\'s requests carry its own company\'s key, A, B, then A again', async () => {
    const { services } = api.testing;
    const shared = await startCompaniesSandbox({ companies: 2, customers: 15, registry: 10, seed: 21, quiet: true });
    const ids: string[] = [];
    try {
      shared.companies.forEach((_company, i) => ids.push(`isolation-shared-${i}`));
      for (const [i, c] of shared.companies.entries()) {
        await services.keys.store(profileSecretName(ids[i]), c.key);
        await services.profiles.store.put({ id: ids[i], name: `Shared ${i}: ${c.name}`, environment: 'custom', baseUrl: shared.url, taxNumber: c.taxNumber });
      }
      let phase = 0;
      for (const i of [0, 1, 0]) {
        await vscode.commands.executeCommand(ProfileCommands.switch, ids[i]);
        shared.resetRequestLog();
        trees.refreshAll();
        await trees.customers.getChildren();
        const groups = await trees.account.getChildren();
        const companyRows = await trees.account.getChildren(groups.find((g) => g.id === 'account/company'));
        assert.equal(companyRows[0].treeItem().description, shared.companies[i].taxNumber, `company ${i}: the account view shows the other company`);
        const listRows = (await trees.account.getChildren(groups.find((g) => g.id === 'account/companies'))) as ListedCompanyNode[];
        assert.deepEqual(listRows.map((r) => r.company.TaxNumber), shared.companies.map((c) => c.taxNumber), 'GET /Company/List lists both companies');
        await sandboxIdle(shared);
        const log = shared.requestLog();
        assert.ok(log.length >= 3);
        assert.deepEqual(log.filter((r) => r.company !== i), [], `company ${i} active: a request carried another company's key`);
        phase++;
        counts[`shared origin, phase ${phase}: key ${i}`] = log.length;
        counts[`shared origin, phase ${phase}: other key`] = log.filter((r) => r.company !== i).length;
      }
    } finally {
      for (const id of ids) {
        await services.keys.delete(profileSecretName(id));
        await services.profiles.store.remove(id);
      }
      services.profiles.followSettings();
      await shared.close();
    }
  });
});
