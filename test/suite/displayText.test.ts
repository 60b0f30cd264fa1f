// Server text in the real extension host's UI (issue 37 row 13): a customer whose name carries a
// right-to-left override, isolates, marks and a control character shows in the Customers tree, its
// tooltip and the quick search pick without them, and picking the cleaned item still acts on it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ProfileCommands, Settings, TreeCommands } from '../../src/constants';
import { profileSecretName, type Profile } from '../../src/shell/profileStore';
import type { SearchPickOptions } from '../../src/shell/prompts';
import type { NilveraTrees } from '../../src/views/trees';
import type { TreeNode } from '../../src/views/treeNode';
import { completeVkn } from '../../src/domain/taxId';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { startSandboxSuite, type SandboxSuite } from '../support/sandboxSuite';
import { extensionTrees } from './treeWalk';

/** U+202E (right-to-left override), U+202C, isolates U+2066/2069, U+200F, U+200B and a BEL. */
const HOSTILE_NAME = '\u202EAcme\u202C \u2066Gıda\u2069\u200F Ltd\u200B\u0007';
const SHOWN_NAME = 'Acme Gıda Ltd';
// eslint-disable-next-line no-control-regex
const HIDDEN = /[\u0000-\u0008\u000E-\u001F\u007F-\u009F\u061C\u200B\u200E\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/;

function labelOf(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}

suite('Server text in labels: no bidi or control characters', function () {
  this.timeout(60_000);
  const prompts = new ScriptedPrompts();
  let suiteEnv: SandboxSuite;
  let trees: NilveraTrees;
  const taxNumber = completeVkn('987654321');

  suiteSetup(async () => {
    suiteEnv = await startSandboxSuite({ customers: 5 }, prompts);
    trees = await extensionTrees();
    assert.ok(trees, 'the trees test hook returned nothing');
    const { sandbox } = suiteEnv;
    const res = await fetch(`${sandbox.url}/general/Customers`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${sandbox.keys.full}`, 'Content-Type': 'application/json' },
      body: JSON.stringify([{ TaxNumber: taxNumber, Name: HOSTILE_NAME, City: '\u202Ebulutsi\u202C' }]),
    });
    assert.ok(res.ok, `creating the customer answered ${res.status}`);
  });

  suiteTeardown(async () => {
    trees?.customers.root.setFilter({ search: '' });
    await vscode.workspace.getConfiguration(Settings.section).update(Settings.pageSize, undefined, vscode.ConfigurationTarget.Global);
    await suiteEnv?.close();
  });

  test('the Customers tree shows the name, description and tooltip without them', async () => {
    trees.customers.root.setFilter({ search: taxNumber });
    trees.customers.refresh();
    const rows: TreeNode[] = await trees.customers.getChildren();
    const node = rows.find((n) => /\/customer-\d+$/.test(n.id));
    assert.ok(node, `no customer row among ${rows.map((r) => r.id).join(', ')}`);
    const item = trees.customers.getTreeItem(node);
    assert.equal(labelOf(item), SHOWN_NAME);
    assert.equal(item.description, `${taxNumber} · bulutsi`);
    const tooltip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : String(item.tooltip ?? '');
    assert.ok(!HIDDEN.test(tooltip), `the tooltip holds ${JSON.stringify(tooltip)}`);
    assert.ok(tooltip.includes('Acme'), tooltip);
  });

  test('the quick search shows the cleaned name, and picking it selects that customer', async () => {
    let shown: vscode.QuickPickItem[] = [];
    prompts.searchPickScript = async <T extends vscode.QuickPickItem>(options: SearchPickOptions<T>) => {
      const items = await options.search(taxNumber, new AbortController().signal);
      shown = items;
      return items[0];
    };
    await vscode.commands.executeCommand('nilvera.customers.focus');
    await vscode.commands.executeCommand(TreeCommands.customersQuickSearch);
    assert.equal(shown.length, 1);
    assert.equal(shown[0].label, SHOWN_NAME);
    assert.equal(shown[0].detail, 'bulutsi');
    // The command got its own item back (with the customer), so it could reveal it.
    const until = Date.now() + 10_000;
    while (!trees.customersView.selection.some((n) => labelOf(trees.customers.getTreeItem(n)) === SHOWN_NAME)) {
      if (Date.now() > until) assert.fail('the picked customer was not selected');
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  test('a customer named "$(alert) …" shows the characters in the quick search, not an icon', async () => {
    const { sandbox } = suiteEnv;
    const iconNumber = completeVkn('987654322');
    const res = await fetch(`${sandbox.url}/general/Customers`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${sandbox.keys.full}`, 'Content-Type': 'application/json' },
      body: JSON.stringify([{ TaxNumber: iconNumber, Name: '$(alert) Uyarı Ltd', City: '$(check) Van' }]),
    });
    assert.ok(res.ok, `creating the customer answered ${res.status}`);
    let shown: vscode.QuickPickItem[] = [];
    prompts.searchPickScript = async <T extends vscode.QuickPickItem>(options: SearchPickOptions<T>) => {
      shown = await options.search(iconNumber, new AbortController().signal);
      return undefined;
    };
    await vscode.commands.executeCommand(TreeCommands.customersQuickSearch);
    assert.deepEqual(shown.map((i) => [i.label, i.detail]), [['\\$(alert) Uyarı Ltd', '\\$(check) Van']]);
  });

  test('a profile named with bidi characters and "$(icon)" reads clean in the status bar and the profile pick; a typed name is stored clean', async () => {
    const { api, sandbox } = suiteEnv;
    const services = api.testing.services;
    const hostile: Profile = { id: 'bidi-test-profile', name: `\u202EŞirket\u202C $(alert) \u2067A.Ş.\u2069`, environment: 'custom', baseUrl: sandbox.url };
    await services.keys.store(profileSecretName(hostile.id), sandbox.keys.full);
    await services.profiles.store.put(hostile);
    services.usage.markUsed('command');
    try {
      await vscode.commands.executeCommand(ProfileCommands.switch, hostile.id);
      await api.testing.state.refresh();
      const until = Date.now() + 10_000;
      let text = '';
      while (!(text = api.testing.statusBar().snapshot().environmentText).includes('Şirket')) {
        if (Date.now() > until) assert.fail(`the status bar never named the profile: ${JSON.stringify(text)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.ok(!HIDDEN.test(text), `the status bar shows ${JSON.stringify(text)}`);
      assert.ok(text.endsWith('Şirket \\$(alert) A.Ş.'), `the profile's "$(alert)" must stay text: ${JSON.stringify(text)}`);

      prompts.take();
      await vscode.commands.executeCommand(ProfileCommands.switch);
      const labels = prompts.offeredLabels().at(-1) ?? [];
      assert.ok(labels.some((l) => l.includes('Şirket')), JSON.stringify(labels));
      assert.ok(labels.every((l) => !HIDDEN.test(l)), JSON.stringify(labels));

      prompts.inputs = ['\u202EMerkez\u202C\u200F Şube'];
      await vscode.commands.executeCommand(ProfileCommands.rename, hostile.id);
      assert.equal(services.profiles.store.get(hostile.id)?.name, 'Merkez Şube');
    } finally {
      await services.keys.delete(profileSecretName(hostile.id));
      await services.profiles.store.remove(hostile.id);
      services.profiles.followSettings();
      await api.testing.state.refresh();
    }
  });
});
