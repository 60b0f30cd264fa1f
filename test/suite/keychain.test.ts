// A keychain that refuses to be read (a locked macOS keychain, access denied, no keyring service), in a
// real extension host: it is not "no key". The commands that need a key stay, the cause and what to do
// on this system are said once, and a command run anyway says the same instead of "HTTP 401". The
// refusal comes from a SecretStorage that throws as VS Code's does when the system store refuses.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { PaletteCommands } from '../../src/constants';
import type { NilveraExtensionApi } from '../../src/extension';
import { ApiKeyStore } from '../../src/shell/apiKeyStore';
import { keyringAdvice } from '../../src/shell/keyringHelp';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { startSandboxSuite } from '../support/sandboxSuite';

suite('Keychain refusals', function () {
  this.timeout(60_000);
  let api: NilveraExtensionApi;
  const prompts = new ScriptedPrompts();
  let close: () => Promise<void> = async () => undefined;

  suiteSetup(async () => {
    ({ api, close } = await startSandboxSuite({ customers: 5, registry: 50, seed: 13 }, prompts));
  });

  suiteTeardown(() => close());

  test('a keychain that refuses to be read is not "no key": the commands stay, the cause and the help are shown once, a command says it instead of "HTTP 401"', async () => {
    const services = api.testing.services;
    const holder = services as unknown as { keyStore: ApiKeyStore | undefined };
    void services.keys; // created now if not yet
    const real = holder.keyStore;
    const changed = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
    // What VS Code reports when macOS refuses the keychain (errSecInteractionNotAllowed).
    const refused: vscode.SecretStorage = {
      get: async () => {
        throw new Error('User interaction is not allowed.');
      },
      store: async () => undefined,
      delete: async () => undefined,
      keys: async () => [],
      onDidChange: changed.event,
    } as vscode.SecretStorage;
    holder.keyStore = new ApiKeyStore(refused);
    try {
      assert.deepEqual(await services.keyStatus(), { kind: 'unreadable', reason: 'User interaction is not allowed.' });
      assert.equal(await services.hasApiKey(), true);
      await api.testing.state.refresh();
      assert.equal(api.testing.state.current()?.hasKey, true, 'the commands that need a key stay');
      const warnings = prompts.messages.filter((m) => m.level === 'warning');
      assert.equal(warnings.length, 1, JSON.stringify(prompts.messages));
      assert.match(warnings[0].text, /^The operating system keychain did not give VS Code the API key \(User interaction is not allowed\.\); the key may still be stored\. On Linux, VS Code needs a keyring service/);
      assert.deepEqual(warnings[0].actions, ['Try Again', 'Open Keyring Help']);
      await api.testing.state.refresh();
      assert.equal(prompts.messages.filter((m) => m.level === 'warning').length, 1, 'told once, not on every refresh');

      await vscode.commands.executeCommand(PaletteCommands.registryCheckTaxNumber, { taxNumber: '4540536920', userType: 'Invoice' });
      const error = prompts.messages.find((m) => m.level === 'error');
      assert.ok(error, JSON.stringify(prompts.messages));
      assert.match(error.text, /did not give VS Code the API key \(User interaction is not allowed\.\)/);
      assert.doesNotMatch(error.text, /401/);
      assert.deepEqual(error.actions, ['Retry', 'Open Keyring Help']);
    } finally {
      holder.keyStore = real;
      changed.dispose();
      await api.testing.state.refresh();
    }
    assert.equal(api.testing.state.current()?.hasKey, true);
  });

  test('the help says what to do on each system: Credential Manager on Windows, Keychain Access and "Always Allow" on macOS, a keyring service or --password-store on Linux', () => {
    const windows = keyringAdvice('win32');
    const mac = keyringAdvice('darwin');
    const linux = keyringAdvice('linux');
    assert.match(windows, /Credential Manager/);
    assert.match(mac, /Keychain Access/);
    assert.match(mac, /"Always Allow"/);
    assert.match(linux, /gnome-keyring/);
    assert.match(linux, /KWallet/);
    assert.match(linux, /--password-store/);
    assert.equal(new Set([windows, mac, linux]).size, 3);
  });
});
