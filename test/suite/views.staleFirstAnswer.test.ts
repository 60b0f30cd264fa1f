// A change of a whole view that VS Code drops: when the change reaches the workbench in the same
// write as the extension host's answer to the view's FIRST request (the tree's setInput), the
// workbench's tree view clears its cached rows for the change, then its pending first request stores
// that answer's rows again, and the refresh it queued behind that request reads the stored rows
// instead of asking the extension (workbench treeView.ts: refresh() sets `children = undefined`,
// getChildrenBatch() reuses `children` when set, and only a refresh waits for `refreshing`, not the
// first setInput). With a profile switch, the view keeps the previous company's customers. Found by
// the profile switch benchmark (test/bench/host/profileSwitch.test.ts), whose first switch once
// waited in vain for VS Code to ask. FeatureTree (src/features/index.ts), through which every tree's
// rows and changes pass, tells a shown view once more when it has not asked within ASK_GRACE_MS of the change.
// The same holds for a group (a child node) whose change reaches the workbench with the answer to its
// first expand: the expand's fetch (AsyncDataTree refreshNode, not the tree view's doRefresh) does not
// set `refreshing` either, the refresh waits for that fetch (subTreeRefreshPromises), then reads the
// group's `children` its answer stored again. FeatureTree keeps the second notice per node.
// The Reconciliation view's own tree gets the same: test/suite/reconciliation.staleFirstAnswer.test.ts.
// The first test stages the race only where the customers view is shown for the first time in the
// window (run alone: NILVERA_SUITE_GREP='a change VS Code drops'; it then dropped the switch in 3 runs
// of 3 without the second notice, and in 2 of 3 with it); in the whole suite an earlier test showed the
// view, and it checks the outcome only. The second stages it for an Account group in any order (it
// collapses the group and changes it first: its next expand is then a first fetch). The third holds
// the second notice itself.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ProfileCommands, Views } from '../../src/constants';
import { profileSecretName } from '../../src/shell/profileStore';
import { startCompaniesSandbox } from '../../src/sandbox/companies';
import { InfoNode, ParentNode, type TreeNode } from '../../src/views/treeNode';
import { NodeTreeProvider } from '../../src/views/treeProvider';
import { ASK_GRACE_MS, FeatureTree } from '../../src/features';
import { activateExtension } from '../support/extension';
import { startSandboxSuite } from '../support/sandboxSuite';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { waitFor } from '../support/waitFor';
import { suiteLog } from './report';
import { clearCustomersFilter, extensionTrees } from './treeWalk';

/** Tax numbers of customer rows (the extension bundle's nodes: read by shape). */
function taxNumbers(rows: readonly TreeNode[]): string[] {
  return rows.map((n) => (n as { customer?: { TaxNumber?: string } }).customer?.TaxNumber).filter((t): t is string => typeof t === 'string');
}

suite('Views: a change VS Code drops with its first answer', function () {
  this.timeout(60_000);

  test("a profile switch that reaches VS Code with the customers view's first answer: the view ends on the new company's first page", async () => {
    const { services } = (await activateExtension()).testing;
    const trees = await extensionTrees();
    clearCustomersFilter(trees);
    const shared = await startCompaniesSandbox({ companies: 2, customers: 40, registry: 10, seed: 31, quiet: true });
    const ids = ['stale-first-answer-a', 'stale-first-answer-b'];
    const provider = trees.customers;
    const original = provider.getChildren;
    const answers: Array<{ start: number; rows: string[] }> = [];
    let switchScheduled = false;
    let switchedAt = Infinity;
    try {
      for (const [i, c] of shared.companies.entries()) {
        await services.keys.store(profileSecretName(ids[i]), c.key);
        await services.profiles.store.put({ id: ids[i], name: `Stale first answer ${i}`, environment: 'custom', baseUrl: shared.url, taxNumber: c.taxNumber });
      }
      const firstPages: Array<Set<string>> = [];
      for (const c of shared.companies) {
        const res = await fetch(`${shared.url}/general/Customers?Page=1&PageSize=20`, { headers: { Authorization: `Bearer ${c.key}` } });
        firstPages.push(new Set(((await res.json()) as { Content: Array<{ TaxNumber: string }> }).Content.map((x) => x.TaxNumber)));
      }
      const [pageA, pageB] = firstPages;
      assert.ok(![...pageB].some((t) => pageA.has(t)), 'the two companies have different first pages');
      await vscode.commands.executeCommand(ProfileCommands.switch, ids[0]);
      // Past VS Code's debounce of tree changes (200 ms): the next change is sent at once, not queued.
      await new Promise((r) => setTimeout(r, 500));

      // What VS Code is handed for the root. Right after the first answer (A's page) the window
      // switches to B (what "Switch Profile" does once its pick is made): setImmediate runs before the
      // extension host's protocol writer sends what it buffered (VS Code's ProtocolWriter: on a 0 ms timer), so
      // the answer and the change leave in one write.
      provider.getChildren = async function (this: typeof provider, node?: TreeNode) {
        const start = performance.now();
        const rows = await original.call(this, node);
        if (!node) {
          answers.push({ start, rows: taxNumbers(rows) });
          if (!switchScheduled && rows.length > 0) {
            switchScheduled = true;
            setImmediate(() => {
              switchedAt = performance.now();
              services.profiles.switchTo(ids[1]);
            });
          }
        }
        return rows;
      };
      // Shown now; in a window where it was shown before (the whole suite), VS Code asks through a
      // refresh, which queues the change behind it: then the switch is never dropped.
      await vscode.commands.executeCommand('workbench.view.extension.nilvera');
      await vscode.commands.executeCommand(`${Views.customers}.focus`);
      await waitFor(() => answers.length > 0 || provider.root.peek() !== undefined, "the customers view's first page");
      if (!switchScheduled) provider.refresh();

      const isPageB = (rows: string[]) => rows.length === pageB.size && rows.every((t) => pageB.has(t));
      const handedB = await waitFor(
        () => answers.find((a) => a.start >= switchedAt && isPageB(a.rows)),
        `VS Code to ask for the customers view's root after the switch and be handed B's first page (answers: ${JSON.stringify(answers.map((a) => ({ start: Math.round(a.start - switchedAt), rows: a.rows.length, b: isPageB(a.rows), a: a.rows.every((t) => pageA.has(t)) })))})`,
        5 * ASK_GRACE_MS,
      );
      assert.ok(pageA.size > 0 && answers[0].rows.every((t) => pageA.has(t)), "the first answer was A's page");
      const afterMs = handedB.start - switchedAt;
      // Logged: whether this run staged the race (VS Code asked only after the provider's second notice).
      suiteLog(`    VS Code asked for the root ${afterMs.toFixed(0)} ms after the switch${afterMs >= ASK_GRACE_MS ? ' (it had dropped the change: asked after the second notice)' : ''}`);
    } finally {
      provider.getChildren = original;
      for (const id of ids) {
        await services.keys.delete(profileSecretName(id));
        await services.profiles.store.remove(id);
      }
      services.profiles.followSettings();
      await shared.close();
    }
  });

  test("a group's change that reaches VS Code with its first answer after an expand: VS Code is handed the group's new rows", async () => {
    const prompts = new ScriptedPrompts();
    const { sandbox, api, close } = await startSandboxSuite({}, prompts);
    const { services } = api.testing;
    const trees = await extensionTrees();
    const provider = trees.account;
    const original = provider.getChildren;
    const whatsApp = (rows: readonly TreeNode[]) => rows.find((r) => r.id.endsWith('/mailing-WhatsApp'))?.treeItem().description;
    const answers: Array<{ start: number; whatsApp: unknown }> = [];
    let armed = false;
    let changedAt = Infinity;
    try {
      await vscode.commands.executeCommand('workbench.view.extension.nilvera');
      await vscode.commands.executeCommand(`${Views.account}.focus`);
      await waitFor(() => trees.accountView.visible || undefined, 'the account view to be shown');
      const groups = await original.call(provider);
      const mailing = groups.find((g) => g.id === 'account/mailing');
      assert.ok(mailing, 'the account view has a mailing group');
      const wasActive = ((await (await fetch(`${sandbox.url}/__sandbox/state`)).json()) as { mailing: Array<{ ModuleID: string; IsActive: boolean }> }).mailing.find((m) => m.ModuleID === 'WhatsApp')!.IsActive;
      // Collapsed and changed: VS Code forgets the group's rows and fetches them at its next expand, as
      // at its first (the workbench's tree marks a collapsed node it refreshes stale). Whichever test
      // expanded the group before, the expand below is then a first answer.
      await vscode.commands.executeCommand(`workbench.actions.treeView.${Views.account}.collapseAll`);
      services.dataChanged('mailing');
      // Past VS Code's debounce of tree changes (200 ms): the next change is sent at once, not queued.
      await new Promise((r) => setTimeout(r, 500));

      // Right after the group's first answer the server's WhatsApp switch flips and the group is told
      // (what "Toggle" does): setImmediate runs before the extension host's protocol writer sends what
      // it buffered, so the answer and the change leave in one write.
      provider.getChildren = async function (this: typeof provider, node?: TreeNode) {
        const start = performance.now();
        const rows = await original.call(this, node);
        if (node?.id === mailing.id) {
          answers.push({ start, whatsApp: whatsApp(rows) });
          if (armed) {
            armed = false;
            const res = await fetch(`${sandbox.url}/general/Mailing/Whatsapp/Setting/${!wasActive}`, { method: 'POST', headers: { Authorization: `Bearer ${sandbox.keys.full}` } });
            assert.ok(res.ok, `the WhatsApp switch answered ${res.status}`);
            setImmediate(() => {
              changedAt = performance.now();
              services.dataChanged('mailing');
            });
          }
        }
        return rows;
      };
      armed = true;
      await trees.accountView.reveal(mailing, { expand: true });
      await waitFor(() => changedAt < Infinity || undefined, "the mailing group's first answer");
      const was = wasActive ? 'on' : 'off';
      const now = wasActive ? 'off' : 'on';
      assert.equal(answers[0].whatsApp, was, "the first answer showed the switch as it was");
      const handed = await waitFor(() => answers.find((a) => a.start >= changedAt && a.whatsApp === now), `VS Code to ask for the mailing group after the change and be handed WhatsApp ${now}`, 5 * ASK_GRACE_MS).catch((error: Error) => {
        const seen = answers.map((a) => ({ ms: Math.round(a.start - changedAt), whatsApp: a.whatsApp }));
        throw new Error(`${error.message} (answers, ms from the change: ${JSON.stringify(seen)})`);
      });
      const afterMs = handed.start - changedAt;
      suiteLog(`    VS Code asked for the group ${afterMs.toFixed(0)} ms after the change${afterMs >= ASK_GRACE_MS ? ' (it had dropped the change: asked after the second notice)' : ''}`);
    } finally {
      provider.getChildren = original;
      await close();
    }
  });

  test('a shown view that VS Code has not asked for within ASK_GRACE_MS of a change of it, of a group or of a row is told once more; one it asked for, or a hidden one, is not', async () => {
    class Group extends ParentNode {
      protected async load(): Promise<TreeNode[]> {
        return [new InfoNode(this, 'row', 'row')];
      }
    }
    class Root extends ParentNode {
      protected async load(): Promise<TreeNode[]> {
        return [new Group(this, 'group', this.notify)];
      }
    }
    let shown = true;
    const provider = new NodeTreeProvider(Views.customers, (notify) => new Root(undefined, 'probe', notify), async () => true);
    // The wrapper activate() puts around every tree, here of no registered view: VS Code never asks
    // for its rows, the test asks in its place.
    const tree = new FeatureTree('probe', { name: 'views', parts: async () => ({ trees: { probe: provider } }) }, () => shown);
    const fired: number[] = [];
    const firedFor: Array<string | undefined> = [];
    const listener = tree.onDidChangeTreeData((node) => {
      fired.push(performance.now());
      firedFor.push((node as TreeNode | undefined)?.id);
    });
    const settle = () => new Promise((r) => setTimeout(r, ASK_GRACE_MS + 300));
    try {
      // The first request loads the feature's provider; its changes pass through from then on.
      const [group] = (await tree.getChildren()) as TreeNode[];
      assert.ok(group instanceof Group);
      const t0 = performance.now();
      provider.refresh();
      await settle();
      assert.equal(fired.length, 2, 'a change nobody asked for: the change and one more notice');
      assert.ok(fired[1] - t0 >= ASK_GRACE_MS - 5, `the second notice after the grace (${(fired[1] - t0).toFixed(0)} ms)`);

      fired.length = 0;
      provider.refresh();
      await tree.getChildren();
      await settle();
      assert.equal(fired.length, 1, 'VS Code asked after the change: no second notice');

      // Asking the feature's provider itself is not VS Code asking.
      fired.length = 0;
      provider.refresh();
      await provider.getChildren();
      await settle();
      assert.equal(fired.length, 2, 'only a request through the wrapper counts as VS Code asking');

      // A group (a child node): the same, and each notice names the group, not the whole view.
      const [sameGroup] = (await tree.getChildren()) as TreeNode[];
      assert.ok(sameGroup instanceof Group);
      fired.length = 0;
      firedFor.length = 0;
      sameGroup.refresh();
      await settle();
      assert.deepEqual(firedFor, [sameGroup.id, sameGroup.id], "a group's change nobody asked for: the change and one more notice, for the group");
      fired.length = 0;
      sameGroup.refresh();
      await tree.getChildren(sameGroup);
      await settle();
      assert.equal(fired.length, 1, "VS Code asked for the group's rows after the change: no second notice");

      // A row redrawn (a checkbox put back): VS Code never asks for a row's children, so it is told twice.
      const [row] = (await tree.getChildren(sameGroup)) as TreeNode[];
      firedFor.length = 0;
      provider.redraw(row);
      await settle();
      assert.deepEqual(firedFor, [row.id, row.id], 'a redrawn row: the change and one more notice, for the row');

      fired.length = 0;
      firedFor.length = 0;
      shown = false;
      provider.refresh();
      await settle();
      assert.equal(fired.length, 1, 'a hidden view is asked for when it is shown: no second notice');
    } finally {
      listener.dispose();
      tree.dispose();
      provider.dispose();
    }
  });
});
