// "Rename Profile", and the profile a workspace remembers, in a real extension host. A rename changes
// only the name (id, key, address and the other profiles stay), shows at once in the status bar and
// in "Switch Profile", and refuses an empty name or the API key as a name. The profile a window
// switched to is the one a new window on the same workspace opens with; another workspace opens with
// the profile its settings name, and a removed profile is not brought back.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ProfileCommands } from '../../src/constants';
import type { NilveraExtensionApi } from '../../src/extension';
import { ACTIVE_PROFILE_STATE_KEY, ActiveProfile } from '../../src/shell/activeProfile';
import { defaultProfileId, profileSecretName, type Profile } from '../../src/shell/profileStore';
import { checkCustomUrl } from '../../src/shell/environments';
import { readSettings } from '../../src/shell/settings';
import { environmentLabel } from '../../src/shell/services';
import { activateExtension } from '../support/extension';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { startTestSandbox, type SandboxHandle } from '../support/sandbox';
import { waitFor } from '../support/waitFor';

/** A workspaceState of a workspace this window never opened. */
class EmptyMemento implements vscode.Memento {
  private readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    return (this.values.has(key) ? this.values.get(key) : defaultValue) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
  }
}

suite('Profiles: rename, and the profile a workspace remembers', function () {
  this.timeout(60_000);
  let api: NilveraExtensionApi;
  let sandbox: SandboxHandle;
  let restorePrompts: () => void = () => undefined;
  const prompts = new ScriptedPrompts();
  const KEY = 'RENAME-CANARY'.padEnd(64, 'R');
  const first: Profile = { id: 'rename-test-first', name: 'Birinci Şirket', environment: 'custom' };
  const second: Profile = { id: 'rename-test-second', name: 'İkinci Şirket', environment: 'custom' };
  const services = () => api.testing.services;
  const context = () => (services() as unknown as { context: vscode.ExtensionContext }).context;
  const stored = (id: string) => services().profiles.store.get(id);

  suiteSetup(async () => {
    api = await activateExtension();
    restorePrompts = api.testing.replacePrompts(prompts);
    sandbox = await startTestSandbox({ key: KEY, customers: 5, registry: 10, seed: 33 });
    for (const p of [first, second]) {
      p.baseUrl = sandbox.url;
      await services().keys.store(profileSecretName(p.id), KEY);
      await services().profiles.store.put(p);
    }
    // The status bar shows the profile only in a workspace that uses Nilvera.
    services().usage.markUsed('command');
  });

  suiteTeardown(async () => {
    restorePrompts();
    for (const p of [first, second]) {
      await services().keys.delete(profileSecretName(p.id));
      await services().profiles.store.remove(p.id);
    }
    services().profiles.followSettings();
    await api.testing.state.refresh();
    await sandbox.close();
  });

  setup(() => {
    prompts.take();
  });

  test('"Rename Profile" renames the picked profile only: the status bar and "Switch Profile" show the new name; key, id and address stay', async () => {
    await vscode.commands.executeCommand(ProfileCommands.switch, first.id);
    await api.testing.state.refresh();
    await waitFor(() => api.testing.statusBar().snapshot().environmentText.includes(first.name), 'the status bar to name the profile');
    prompts.picks.push((items) => items.find((i) => i.label.endsWith(first.name)));
    prompts.inputs.push('  Birinci Şirket (Merkez)  ');
    await vscode.commands.executeCommand(ProfileCommands.rename);
    assert.ok(prompts.offeredLabels()[0]?.some((l) => l.endsWith(second.name)), `every profile is offered: ${JSON.stringify(prompts.offeredLabels())}`);
    const renamed = stored(first.id);
    assert.deepEqual(renamed && { ...renamed, lastUsedAt: undefined }, { ...first, name: 'Birinci Şirket (Merkez)', lastUsedAt: undefined });
    assert.equal(await services().keys.get(profileSecretName(first.id)), KEY, 'the key stays with the profile');
    assert.equal(stored(second.id)?.name, second.name, 'the other profile keeps its name');
    assert.equal(services().activeProfile().id, first.id, 'a rename is no switch');
    await waitFor(() => api.testing.statusBar().snapshot().environmentText.includes('Birinci Şirket (Merkez)'), 'the status bar to show the new name');

    prompts.picks.push(() => undefined);
    await vscode.commands.executeCommand(ProfileCommands.switch);
    assert.ok(prompts.offeredLabels().at(-1)?.some((l) => l === '$(check) Birinci Şirket (Merkez)'), `"Switch Profile" shows the new name: ${JSON.stringify(prompts.offeredLabels().at(-1))}`);
  });

  test('an empty name or the API key as a name is refused, and the name stays', async () => {
    const before = stored(second.id)?.name;
    for (const typed of ['   ', KEY, `Şirket ${KEY}`]) {
      prompts.inputs.push(typed);
      await vscode.commands.executeCommand(ProfileCommands.rename, second.id);
    }
    assert.deepEqual(prompts.refused, ['Enter a name.', 'This is the API key: enter a name for the profile instead.', 'This is the API key: enter a name for the profile instead.']);
    assert.equal(stored(second.id)?.name, before);
    assert.ok(!JSON.stringify(services().profiles.store.all()).includes(KEY), 'the key is in no profile record');
  });

  test('a new window on this workspace opens with the profile it switched to last; another workspace, and a removed profile, do not', async () => {
    await vscode.commands.executeCommand(ProfileCommands.switch, second.id);
    assert.equal(context().workspaceState.get(ACTIVE_PROFILE_STATE_KEY), second.id, 'remembered in workspace state');
    // What a new window reads: this workspace's state, the shared profile records and settings.
    const reopened = new ActiveProfile(context(), environmentLabel, services().globalState);
    assert.equal(reopened.current().id, second.id, 'a new window on this workspace opens with the last profile');
    reopened.dispose();

    const settings = readSettings();
    const custom = settings.environment === 'custom' ? checkCustomUrl(settings.customUrl) : undefined;
    const settingsProfile = defaultProfileId(settings.environment, custom?.ok ? custom.baseUrl : undefined);
    const elsewhere = new ActiveProfile({ ...context(), workspaceState: new EmptyMemento() } as vscode.ExtensionContext, environmentLabel, services().globalState);
    const opened = elsewhere.current().id;
    elsewhere.dispose();
    assert.equal(opened, settingsProfile, "another workspace opens with its settings' profile, not this one's");

    // A remembered profile that was removed meanwhile (in another window): back to the settings' profile.
    await services().profiles.store.remove(second.id);
    try {
      const afterRemoval = new ActiveProfile(context(), environmentLabel, services().globalState);
      assert.equal(afterRemoval.current().id, settingsProfile, 'a removed profile is not brought back');
      afterRemoval.dispose();
    } finally {
      await services().profiles.store.put(second);
    }
  });
});
