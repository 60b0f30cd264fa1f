// What a user meets in a real extension host: nothing shown and nothing requested until
// Nilvera is used in the workspace; rows that open on click in read-only documents; mailing
// checkboxes that ask before turning live sending off; the bulk-check selection key; "Switch
// Environment" writing to the settings scope in force.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Settings, TreeCommands } from '../../src/constants';
import type { NilveraExtensionApi } from '../../src/extension';
import { selectionHasTaxNumber } from '../../src/commands/registry/selectionContext';
import { RECORD_SCHEME } from '../../src/commands/recordDocument';
import type { NilveraTrees } from '../../src/views/trees';
import type { TreeNode } from '../../src/views/treeNode';
import { activateExtension } from '../support/extension';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { requestsSettled } from '../support/requestsSettled';
import { startTestSandbox, type SandboxHandle } from '../support/sandbox';
import { leaveCustomEnvironment, useSandboxEnvironment } from '../support/sandboxSuite';
import { waitFor } from '../support/waitFor';
import { extensionTrees } from './treeWalk';

const config = () => vscode.workspace.getConfiguration(Settings.section);
const repoRoot = path.resolve(__dirname, '..', '..', '..');

const label = (node: TreeNode) => {
  const l = node.treeItem().label;
  return typeof l === 'string' ? l : (l?.label ?? '');
};

suite('UX: nothing where it is not wanted, consistent interaction', function () {
  this.timeout(90_000);
  let sandbox: SandboxHandle;
  let api: NilveraExtensionApi;
  let trees: NilveraTrees;
  let tmp: string;
  const prompts = new ScriptedPrompts();
  let restorePrompts: () => void = () => undefined;
  const usage = () => api.testing.services.usage;
  const bar = () => api.testing.statusBar().snapshot();

  suiteSetup(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-ux-'));
    sandbox = await startTestSandbox({ customers: 6, seed: 16 });
    api = await activateExtension();
    restorePrompts = api.testing.replacePrompts(prompts);
    await useSandboxEnvironment(api, sandbox);
    trees = await extensionTrees();
  });

  suiteTeardown(async () => {
    restorePrompts();
    usage().markUsed('command');
    await leaveCustomEnvironment(api, Settings.editorHoverOnlineLookup);
    await config().update(Settings.environment, undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await sandbox.close();
  });

  setup(() => {
    prompts.reset();
  });

  async function unusedWorkspace(): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await usage().forget();
    await api.testing.state.refresh();
    await requestsSettled(() => sandbox.requestLog().length);
    sandbox.resetRequestLog();
  }

  test('an unused workspace: no status-bar item, and a pom.xml opened in an editor changes nothing and requests nothing', async () => {
    await unusedWorkspace();
    assert.equal(bar().visible, false, 'the status bar shows Nilvera in a workspace that never used it');
    const pom = path.join(tmp, 'pom.xml');
    fs.writeFileSync(pom, '<?xml version="1.0"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n  <modelVersion>4.0.0</modelVersion>\n  <properties><build.timestamp>1700000000</build.timestamp></properties>\n</project>\n');
    await vscode.window.showTextDocument(vscode.Uri.file(pom));
    // A state refresh (as a settings or key change causes) and a while for any late reaction.
    await api.testing.state.refresh();
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(usage().isUsed(), false);
    assert.equal(bar().visible, false);
    assert.deepEqual(sandbox.requestLog().map((r) => `${r.method} ${r.path}`), [], 'requests from an unused workspace');
  });

  test('an unused workspace: hovers make no online look-up even with the setting on', async () => {
    await unusedWorkspace();
    await config().update(Settings.editorHoverOnlineLookup, true, vscode.ConfigurationTarget.Global);
    try {
      const doc = await vscode.workspace.openTextDocument({ language: 'plaintext', content: 'VKN: 4540536920\n' });
      const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(0, 8))) ?? [];
      assert.ok(hovers.length > 0, 'the card itself still shows (checksum, offline list)');
      assert.deepEqual(sandbox.requestLog().map((r) => `${r.method} ${r.path}`), [], 'the online look-up went out before Nilvera was used here');
    } finally {
      await config().update(Settings.editorHoverOnlineLookup, undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('opening the UBL-TR invoice marks the workspace used: the status bar appears and fetches the credits; remembered per workspace', async () => {
    await unusedWorkspace();
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(repoRoot, 'test', 'fixtures', 'ubl-tr-invoice-valid.xml')));
    await waitFor(() => bar().visible, 'the status bar to appear');
    assert.equal(usage().isUsed(), true);
    const context = (api.testing.services as unknown as { context: vscode.ExtensionContext }).context;
    assert.equal(context.workspaceState.get('nilvera.usedInWorkspace'), true, 'the mark is kept in workspace state');
    await waitFor(() => sandbox.requestLog().some((r) => /\/general\/credits$/i.test(r.path.split('?')[0])), 'the credits request');
    await waitFor(() => /\d/.test(bar().creditsText), 'the credit figure');
  });

  test('a customer list (by its header, whatever its name) marks the workspace used; a CSV without tax numbers does not', async () => {
    await unusedWorkspace();
    const plain = path.join(tmp, 'cities.csv');
    fs.writeFileSync(plain, 'city,population\nAnkara,5700000\n');
    await vscode.window.showTextDocument(vscode.Uri.file(plain));
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(usage().isUsed(), false, 'a CSV without a tax-number column');
    const list = path.join(tmp, 'export.txt');
    fs.writeFileSync(list, 'Unvan;Vergi No;İl\nACME;4540536920;Ankara\n');
    await vscode.window.showTextDocument(vscode.Uri.file(list));
    await waitFor(() => usage().isUsed(), 'a customer list in a .txt to count');
    await waitFor(() => bar().visible, 'the status bar');
  });

  test('running a Nilvera command marks the workspace used; the test hooks do not', async () => {
    await unusedWorkspace();
    await vscode.commands.executeCommand(TreeCommands.testHook);
    await vscode.commands.executeCommand('nilvera.internal.diagnostics');
    assert.equal(usage().isUsed(), false, 'internal commands are not a person using Nilvera');
    await vscode.commands.executeCommand('nilvera.log.show');
    assert.equal(usage().isUsed(), true);
    await waitFor(() => bar().visible, 'the status bar');
  });

  test('a click on a customer or a certificate row opens its details in a read-only document', async () => {
    trees.customers.refresh();
    const customer = (await trees.customers.getChildren()).find((n) => /\/customer-\d+$/.test(n.id));
    assert.ok(customer, 'no customer row');
    const click = customer.treeItem().command;
    assert.equal(click?.command, TreeCommands.customersOpen);
    await vscode.commands.executeCommand(click.command, ...(click.arguments ?? []));
    const editor = await waitFor(() => (vscode.window.activeTextEditor?.document.uri.scheme === RECORD_SCHEME ? vscode.window.activeTextEditor : undefined), 'the customer document');
    const taxNumber = (customer.treeItem().description as string).split(' · ')[0];
    assert.ok(editor.document.getText().includes(taxNumber), 'the document shows the customer');
    assert.equal(editor.document.isUntitled, false, 'an untitled editor would ask to be saved');
    assert.equal(editor.document.languageId, 'json');
    assert.match(editor.document.uri.path, new RegExp(taxNumber));

    const created = await fetch(`${sandbox.url}/general/Company/Certificate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${sandbox.keys.full}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ SerialNo: 'UXTEST0001', Type: 'EIMZA', StartDate: '2026-01-01T00:00:00', EndDate: '2030-01-01T00:00:00', Password: 'ux-gizli-parola', Description: 'ux' }),
    });
    assert.ok(created.ok, `certificate not created: ${created.status}`);
    trees.certificates.refresh();
    const certificate = (await trees.certificates.getChildren()).find((n) => label(n) === 'UXTEST0001');
    assert.ok(certificate, 'no certificate row');
    const open = certificate.treeItem().command;
    assert.equal(open?.command, TreeCommands.certificatesDetails);
    await vscode.commands.executeCommand(open.command, ...(open.arguments ?? []));
    const certEditor = await waitFor(() => (vscode.window.activeTextEditor?.document.uri.path.includes('UXTEST0001') ? vscode.window.activeTextEditor : undefined), 'the certificate document');
    assert.equal(certEditor.document.uri.scheme, RECORD_SCHEME);
    assert.ok(!certEditor.document.getText().includes('ux-gizli-parola'), 'the password is not shown');
  });

  test('mailing switches are checkboxes; turning one off on the live account asks first, and a "no" sends nothing', async () => {
    const setWhatsapp = (on: boolean) => fetch(`${sandbox.url}/general/Mailing/Whatsapp/Setting/${on}`, { method: 'POST', headers: { Authorization: `Bearer ${sandbox.keys.full}` } });
    assert.ok((await setWhatsapp(true)).ok);
    trees.account.refresh();
    const groups = await trees.account.getChildren();
    const mailingGroup = groups.find((g) => g.id === 'account/mailing');
    const whatsapp = (await trees.account.getChildren(mailingGroup)).find((m) => label(m) === 'WhatsApp');
    assert.ok(whatsapp);
    assert.equal(whatsapp.treeItem().checkboxState && (whatsapp.treeItem().checkboxState as { state: vscode.TreeItemCheckboxState }).state, vscode.TreeItemCheckboxState.Checked);
    const sms = (await trees.account.getChildren(mailingGroup)).find((m) => label(m) === 'SMS');
    if (sms) assert.equal(sms.treeItem().checkboxState, undefined, 'SMS cannot be switched: no checkbox');

    // Production is the live account: the untick asks in a modal dialog; "no" sends nothing.
    await config().update(Settings.environment, 'production', vscode.ConfigurationTarget.Global);
    await requestsSettled(() => sandbox.requestLog().length);
    sandbox.resetRequestLog();
    prompts.answers.push(() => undefined);
    await vscode.commands.executeCommand(TreeCommands.accountToggleMailing, whatsapp, false);
    const asked = prompts.messages.find((m) => m.modal);
    assert.ok(asked, 'no confirmation before turning live WhatsApp sending off');
    assert.match(asked.text, /WhatsApp/);
    assert.deepEqual(asked.actions, ['Turn Off WhatsApp Sending']);
    assert.equal(sandbox.requestLog().length, 0, 'a declined switch sends nothing');

    // The sandbox (custom URL here) is not live: the untick applies at once, no question.
    await useSandboxEnvironment(api, sandbox);
    prompts.messages.length = 0;
    await vscode.commands.executeCommand(TreeCommands.accountToggleMailing, whatsapp, false);
    assert.equal(prompts.messages.filter((m) => m.modal).length, 0);
    const settings = (await (await fetch(`${sandbox.url}/general/Mailing/Setting`, { headers: { Authorization: `Bearer ${sandbox.keys.full}` } })).json()) as Array<{ ModuleID: string; IsActive: boolean }>;
    assert.equal(settings.find((m) => m.ModuleID === 'WhatsApp')?.IsActive, false);
    // Ticking a box that is already ticked (a stale event) sends nothing.
    sandbox.resetRequestLog();
    const off = (await trees.account.getChildren((await trees.account.getChildren()).find((g) => g.id === 'account/mailing'))).find((m) => label(m) === 'WhatsApp')!;
    await vscode.commands.executeCommand(TreeCommands.accountToggleMailing, off, false);
    assert.equal(sandbox.requestLog().filter((r) => r.method !== 'GET').length, 0);
  });

  test('"Bulk Check" selection key: a selected 10/11-digit number in XML/CSV or a tax-number file; not any selection', async () => {
    const select = async (doc: vscode.TextDocument, text: string) => {
      const editor = await vscode.window.showTextDocument(doc);
      const at = doc.getText().indexOf(text);
      editor.selection = new vscode.Selection(doc.positionAt(at), doc.positionAt(at + text.length));
      return editor;
    };
    const xml = await vscode.workspace.openTextDocument({ language: 'xml', content: '<ID schemeID="VKN">4540536920</ID>\n<Note>hello</Note>\n' });
    assert.equal(selectionHasTaxNumber(await select(xml, '<ID schemeID="VKN">4540536920</ID>')), true);
    assert.equal(selectionHasTaxNumber(await select(xml, 'hello')), false, 'no number in the selection');
    const notes = await vscode.workspace.openTextDocument({ language: 'plaintext', content: 'call 4540536920 tomorrow\n' });
    assert.equal(selectionHasTaxNumber(await select(notes, 'call 4540536920')), false, 'a plain note');
    const listFile = path.join(tmp, 'vkn-listesi.txt');
    fs.writeFileSync(listFile, '4540536920\n1234567890\n');
    const list = await vscode.workspace.openTextDocument(vscode.Uri.file(listFile));
    assert.equal(selectionHasTaxNumber(await select(list, '4540536920\n1234567890')), true, 'a file named for tax numbers');
  });

  // Where Switch Environment writes (user settings only, never a workspace's file) and what it says when a
  // workspace's value overrides the choice: test/suite/workspaceSettings.test.ts.
});
