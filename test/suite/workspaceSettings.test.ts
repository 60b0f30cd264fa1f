// A folder's `.vscode/settings.json` belongs to whoever made the folder. Switch Environment writes the
// user's answer to user settings only, and says when the workspace's own value overrides it here.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Commands, Settings } from '../../src/constants';
import type { NilveraExtensionApi } from '../../src/extension';
import { activateExtension } from '../support/extension';
import { ScriptedPrompts } from '../support/scriptedPrompts';

suite('Workspace settings: the user\'s choice stays the user\'s', function () {
  this.timeout(60_000);
  const prompts = new ScriptedPrompts();
  let api: NilveraExtensionApi;
  let restore: () => void = () => undefined;
  const config = () => vscode.workspace.getConfiguration(Settings.section);

  suiteSetup(async () => {
    assert.ok(vscode.workspace.workspaceFolders?.length, 'the suite runs with a folder open');
    api = await activateExtension();
    restore = api.testing.replacePrompts(prompts);
  });
  suiteTeardown(async () => {
    restore();
    await config().update(Settings.environment, undefined, vscode.ConfigurationTarget.Workspace);
    await config().update(Settings.environment, undefined, vscode.ConfigurationTarget.Global);
  });

  test('Switch Environment writes to user settings, leaves the workspace\'s value alone and says it overrides the choice', async () => {
    await config().update(Settings.environment, 'test', vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand(Commands.environmentSwitch, 'production');
    const inspected = config().inspect<string>(Settings.environment);
    assert.equal(inspected?.workspaceValue, 'test', 'the workspace file was rewritten');
    assert.equal(inspected?.globalValue, 'production', 'the choice is in user settings');
    const told = prompts.messages.find((m) => m.level === 'warning' && m.text.includes('nilvera.environment') && m.text.includes('"test"'));
    assert.ok(told, `no message about the workspace's value: ${JSON.stringify(prompts.messages)}`);

    // Without a workspace value the choice applies and nothing is said.
    await config().update(Settings.environment, undefined, vscode.ConfigurationTarget.Workspace);
    prompts.messages.length = 0;
    await vscode.commands.executeCommand(Commands.environmentSwitch, 'test');
    assert.equal(config().get(Settings.environment), 'test');
    assert.equal(config().inspect<string>(Settings.environment)?.workspaceValue, undefined);
    assert.deepEqual(prompts.messages.filter((m) => m.level === 'warning'), []);
  });
});
