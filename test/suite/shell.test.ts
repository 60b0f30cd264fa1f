// The extension shell in a real extension host: environments, the API key flow checked against the
// sandbox, the credits status bar, the command error wrapper, the keyring fallback, and a canary
// key that must not leak into logs, settings or messages.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createClient } from '../../src/api';
import { Commands, EXTENSION_ID, Settings } from '../../src/constants';
import type { NilveraExtensionApi } from '../../src/extension';
import { ApiKeyStore, KeyringUnavailableError } from '../../src/shell/apiKeyStore';
import { runCommand } from '../../src/shell/commandRunner';
import { checkCustomUrl, type EnvironmentId } from '../../src/shell/environments';
import { defaultProfileId, profileSecretName } from '../../src/shell/profileStore';
import { offerSessionOnlyKey } from '../../src/shell/keyringHelp';
import { replacePrompts as replaceLocalPrompts, UserCancelledError } from '../../src/shell/prompts';
import { activateExtension } from '../support/extension';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { requestsSettled } from '../support/requestsSettled';
import { waitFor } from '../support/waitFor';

type PickItem = vscode.QuickPickItem & { environment?: EnvironmentId };

const ENVIRONMENTS: EnvironmentId[] = ['production', 'test', 'sandbox'];

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(Settings.section);
}

async function sandboxGet<T>(url: string, key: string, apiPath: string): Promise<T> {
  const response = await fetch(`${url}${apiPath}`, { headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' } });
  assert.equal(response.status, 200, `GET ${apiPath} answered ${response.status}`);
  return (await response.json()) as T;
}

async function sandboxRequests(url: string): Promise<Array<{ method: string; path: string; status: number }>> {
  const response = await fetch(`${url}/__sandbox/requests`);
  const body = (await response.json()) as unknown;
  return (Array.isArray(body) ? body : ((body as { requests?: unknown[] }).requests ?? [])) as Array<{ method: string; path: string; status: number }>;
}

function digits(text: string): string {
  return text.replace(/\D/g, '');
}

/** Keys typed in tests may only go to the local sandbox, never to a real host. */
function assertSandboxActive(): void {
  assert.equal(config().get(Settings.environment), 'sandbox', 'refusing to send a test key: the Sandbox environment is not active');
}

async function resetShell(api: NilveraExtensionApi): Promise<void> {
  const { services } = api.testing;
  for (const env of ENVIRONMENTS) await services.keys.delete(services.secretName(env));
  for (const key of [Settings.environment, Settings.customUrl, Settings.creditWarningThreshold]) {
    await config().update(key, undefined, vscode.ConfigurationTarget.Global);
  }
  await api.testing.state.refresh();
}

suite('Extension shell', function () {
  this.timeout(60_000);
  let api: NilveraExtensionApi;
  const prompts = new ScriptedPrompts<PickItem>();
  let restorePrompts: () => void = () => undefined;
  let sandbox: { url: string; key: string };

  suiteSetup(async () => {
    api = await activateExtension();
    restorePrompts = api.testing.replacePrompts(prompts);
    // The status bar of a workspace where Nilvera is in use (ux.behaviour.test.ts covers one where it is not).
    api.testing.services.usage.markUsed('command');
    await resetShell(api);
  });

  suiteTeardown(async () => {
    restorePrompts();
    await resetShell(api);
    await api.testing.services.sandbox.stop();
  });

  setup(() => prompts.reset());

  test('activate() reads no key: the state is filled in afterwards, without a key the credits stay hidden', async () => {
    assert.ok(api.activationMs >= 0 && api.activationMs < 1000, `activationMs ${api.activationMs}`);
    await api.testing.state.refresh();
    assert.deepEqual(api.testing.state.current(), { environment: 'production', hasKey: false });
    const bar = api.testing.statusBar().snapshot();
    assert.equal(bar.creditsVisible, false);
    assert.match(bar.environmentText, /Nilvera: /);
    // One profile: a click on the item switches the environment.
    if (api.testing.services.profiles.store.all().length <= 1) assert.equal(bar.environmentCommand, Commands.environmentSwitch);
  });

  test('"Try the Sandbox" starts the local server, stores its key, switches to it and shows its credits', async () => {
    await vscode.commands.executeCommand(Commands.sandboxStart);
    const running = api.testing.services.sandbox.current();
    assert.ok(running, 'no sandbox is running');
    assert.match(running.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    sandbox = { url: running.url, key: running.key };
    assert.equal(config().get(Settings.environment), 'sandbox');
    assert.equal(await api.testing.services.keys.get(profileSecretName(defaultProfileId('sandbox'))), running.key);
    assert.ok(prompts.messages.some((m) => m.level === 'info' && m.text.includes(running.url)), 'no message naming the sandbox URL');

    await api.testing.state.refresh();
    assert.deepEqual(api.testing.state.current(), { environment: 'sandbox', hasKey: true });
    // The status bar must show the sum of RemainingCredit the server reports.
    const credits = await sandboxGet<Array<{ Name: string; RemainingCredit: number }>>(sandbox.url, sandbox.key, '/general/Credits');
    assert.ok(credits.length > 0, 'the sandbox has no credit packages');
    const remaining = credits.reduce((s, c) => s + c.RemainingCredit, 0);
    const bar = api.testing.statusBar().snapshot();
    assert.equal(bar.creditsVisible, true);
    assert.equal(digits(bar.creditsText), String(remaining), `status bar "${bar.creditsText}" vs ${remaining} remaining`);
    const rows = bar.creditsTooltip.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('|---'));
    assert.equal(rows.length, credits.length + 1, 'the tooltip should list every credit package (plus a header row)');
  });

  test('the credit warning colour follows the threshold setting', async () => {
    const credits = await sandboxGet<Array<{ RemainingCredit: number }>>(sandbox.url, sandbox.key, '/general/Credits');
    const remaining = credits.reduce((s, c) => s + c.RemainingCredit, 0);
    await config().update(Settings.creditWarningThreshold, remaining + 1, vscode.ConfigurationTarget.Global);
    await api.testing.statusBar().refreshCredits();
    assert.equal(api.testing.statusBar().snapshot().warning, true, 'below the threshold the item should warn');
    await config().update(Settings.creditWarningThreshold, remaining, vscode.ConfigurationTarget.Global);
    await api.testing.statusBar().refreshCredits();
    assert.equal(api.testing.statusBar().snapshot().warning, false, 'at the threshold the item should not warn');
  });

  test('"Set API Key" checks the key with GET /Company: a rejected key can be re-entered, then the good one is saved', async () => {
    assertSandboxActive();
    const company = await sandboxGet<{ Name: string }>(sandbox.url, sandbox.key, '/general/Company');
    // Views that earlier suites left open may still be loading the company: let them finish first.
    await requestsSettled(async () => (await sandboxRequests(sandbox.url)).length);
    await fetch(`${sandbox.url}/__sandbox/requests`, { method: 'DELETE' });
    // Buttons of the failed check, in order: Save Anyway, Re-enter.
    prompts.inputs.push('REJECTED-KEY-0000000000000000', sandbox.key);
    prompts.answers.push((actions) => actions[1]);
    await vscode.commands.executeCommand(Commands.apiKeySet);

    assert.equal(prompts.inputBoxes.length, 2);
    assert.ok(prompts.inputBoxes.every((o) => o.password === true && o.ignoreFocusOut === true), 'the key box must be a password box');
    const warning = prompts.messages.find((m) => m.level === 'warning');
    assert.ok(warning, 'the rejected key gave no warning');
    assert.match(warning.text, /GET \/Company/);
    assert.match(warning.text, /401/);
    assert.equal(warning.actions.length, 2);
    const saved = prompts.messages.find((m) => m.level === 'info');
    assert.ok(saved && saved.text.includes(company.Name), `the confirmation should name the company "${company.Name}"`);
    assert.equal(await api.testing.services.keys.get(profileSecretName(defaultProfileId('sandbox'))), sandbox.key);
    const checks = (await sandboxRequests(sandbox.url)).filter((r) => r.method === 'GET' && /\/general\/company$/i.test(r.path)).map((r) => r.status);
    assert.deepEqual(checks.slice(0, 2), [401, 200]);
  });

  test('"Save Anyway" keeps a key the check rejected; the status bar then reports the failure', async () => {
    assertSandboxActive();
    prompts.inputs.push('ALSO-REJECTED-KEY-00000000000');
    prompts.answers.push((actions) => actions[0]);
    await vscode.commands.executeCommand(Commands.apiKeySet);
    assert.equal(await api.testing.services.keys.get(profileSecretName(defaultProfileId('sandbox'))), 'ALSO-REJECTED-KEY-00000000000');
    await api.testing.state.refresh();
    const bar = api.testing.statusBar().snapshot();
    assert.equal(bar.creditsVisible, true);
    assert.equal(digits(bar.creditsText), '', 'no credit figure without a valid key');
    assert.match(bar.creditsTooltip, /401/);
    await api.testing.services.keys.store(profileSecretName(defaultProfileId('sandbox')), sandbox.key);
  });

  test('"Switch Environment" changes the setting, the status bar and the key in use; each environment keeps its own key', async () => {
    const before = api.testing.statusBar().snapshot().environmentText;
    let offered: readonly PickItem[] = [];
    prompts.picks.push((items) => {
      offered = items;
      return items.find((i) => i.environment === 'test');
    });
    await vscode.commands.executeCommand(Commands.environmentSwitch);
    assert.deepEqual(offered.map((i) => i.environment), ['production', 'test', 'sandbox', 'custom']);
    assert.equal(config().get(Settings.environment), 'test');
    await api.testing.state.refresh();
    assert.deepEqual(api.testing.state.current(), { environment: 'test', hasKey: false });
    const bar = api.testing.statusBar().snapshot();
    assert.notEqual(bar.environmentText, before);
    assert.equal(bar.creditsVisible, false);

    await vscode.commands.executeCommand(Commands.environmentSwitch, 'sandbox');
    await api.testing.state.refresh();
    assert.deepEqual(api.testing.state.current(), { environment: 'sandbox', hasKey: true }, 'the sandbox key must survive the round trip');
  });

  test('a custom URL must be https (http only on loopback); its key is kept per host', async () => {
    prompts.picks.push((items) => items.find((i) => i.environment === 'custom'));
    prompts.inputs.push('http://nilvera.example.com');
    await vscode.commands.executeCommand(Commands.environmentSwitch);
    assert.equal(prompts.refused.length, 1, 'plain http to a remote host must be refused');
    assert.equal(config().get(Settings.environment), 'sandbox', 'a refused URL must not switch');
    assert.equal(prompts.messages.filter((m) => m.level === 'error').length, 0, 'a cancelled prompt is silent');

    prompts.picks.push((items) => items.find((i) => i.environment === 'custom'));
    prompts.inputs.push('https://nilvera.example.com/');
    await vscode.commands.executeCommand(Commands.environmentSwitch);
    assert.equal(config().get(Settings.environment), 'custom');
    assert.equal(config().get(Settings.customUrl), 'https://nilvera.example.com');
    // One default profile per custom origin (its key never goes to another host).
    assert.equal(api.testing.services.secretName(), 'nilvera.apiKey.profile.custom:https://nilvera.example.com');
    assert.deepEqual(checkCustomUrl('http://127.0.0.1:8080/'), { ok: true, baseUrl: 'http://127.0.0.1:8080' });
    assert.equal(checkCustomUrl('https://user:pw@example.com').ok, false);

    await vscode.commands.executeCommand(Commands.environmentSwitch, 'sandbox');
    await config().update(Settings.customUrl, undefined, vscode.ConfigurationTarget.Global);
  });

  test('"Clear API Key" asks first: declined, the key stays; confirmed, it is removed and the welcome state returns', async () => {
    const secret = profileSecretName(defaultProfileId('sandbox'));
    await vscode.commands.executeCommand(Commands.apiKeyClear);
    const question = prompts.messages.find((m) => m.level === 'warning');
    assert.ok(question?.modal, 'the question is modal');
    assert.deepEqual(question.actions, ['Remove Key']);
    assert.equal(await api.testing.services.keys.get(secret), sandbox.key, 'dismissed: the key stays');
    assert.equal(api.testing.state.current()?.hasKey, true);

    prompts.take();
    prompts.answers.push((actions) => actions.find((a) => a === 'Remove Key'));
    await vscode.commands.executeCommand(Commands.apiKeyClear);
    assert.equal(await api.testing.services.keys.get(secret), undefined);
    await waitFor(() => api.testing.state.current()?.hasKey === false, 'hasApiKey to turn false');
    assert.equal(api.testing.statusBar().snapshot().creditsVisible, false);
    assert.ok(prompts.messages.some((m) => m.level === 'info'), 'clearing should confirm');
    await api.testing.services.keys.store(profileSecretName(defaultProfileId('sandbox')), sandbox.key);
  });
});

suite('Shell command wrapper and keyring fallback', () => {
  const prompts = new ScriptedPrompts<PickItem>();
  let restore: () => void = () => undefined;
  let sandbox: { url: string; key: string };

  suiteSetup(async () => {
    const api = await activateExtension();
    restore = replaceLocalPrompts(prompts);
    const running = api.testing.services.sandbox.current() ?? (await api.testing.services.sandbox.ensure(randomBytes(16).toString('hex')));
    sandbox = { url: running.url, key: running.key };
  });
  suiteTeardown(() => restore());
  setup(() => prompts.reset());

  test('401 offers "Set API Key"', async () => {
    const client = createClient({ baseUrl: sandbox.url, getApiKey: async () => 'NOT-THE-SANDBOX-KEY-000000' });
    await runCommand('test.auth', () => client.company.get(), []);
    assert.equal(prompts.messages.length, 1);
    assert.match(prompts.messages[0].text, /401/);
    assert.deepEqual(prompts.messages[0].actions, ['Set API Key']);
  });

  test('422 shows the server\'s own descriptions', async () => {
    const client = createClient({ baseUrl: sandbox.url, getApiKey: async () => sandbox.key });
    // An update breaking the business rules (a refused POST /Customers is a 400 by default: customerBatchStatus).
    const bad = { ID: 1, Name: '', TaxNumber: '1234567890' } as unknown as Parameters<typeof client.customers.update>[0];
    const error = await client.customers.update(bad).then(
      () => assert.fail('the sandbox accepted an invalid customer'),
      (e: { kind: string; messages: Array<{ description: string }> }) => e,
    );
    assert.equal(error.kind, 'validation');
    await runCommand('test.validation', () => client.customers.update(bad), []);
    assert.equal(prompts.messages.length, 1);
    for (const m of error.messages) assert.ok(prompts.messages[0].text.includes(m.description), `"${m.description}" missing from "${prompts.messages[0].text}"`);
  });

  test('a network failure offers "Retry", which runs the command again', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = net.createServer();
      server.listen(0, '127.0.0.1', () => {
        const port = (server.address() as net.AddressInfo).port;
        server.close(() => resolve(port));
      });
    });
    const client = createClient({ baseUrl: `http://127.0.0.1:${closed}`, getApiKey: async () => sandbox.key, retry: { retries: 0 } });
    let calls = 0;
    prompts.answers.push((actions) => actions.find((a) => a === 'Retry'));
    await runCommand('test.network', () => {
      calls++;
      return client.company.get();
    }, []);
    assert.equal(calls, 2);
    assert.equal(prompts.messages.length, 2);
    assert.ok(prompts.messages[0].actions.includes('Retry'));
  });

  test('a cancelled prompt is silent', async () => {
    await runCommand('test.cancel', () => {
      throw new UserCancelledError();
    }, []);
    assert.equal(prompts.messages.length, 0);
  });

  test('a failing keyring: the message names the cause, the key can be kept for this session only', async () => {
    const stored: string[] = [];
    const changed = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
    const brokenKeyring: vscode.SecretStorage = {
      get: async () => {
        throw new Error('Cannot create an item in a locked collection');
      },
      store: async (_k, v) => {
        stored.push(v);
        throw new Error('Cannot create an item in a locked collection');
      },
      delete: async () => undefined,
      onDidChange: changed.event,
    };
    const store = new ApiKeyStore(brokenKeyring);
    const error = await store.store('nilvera.apiKey.test', 'SESSION-ONLY-KEY-0000000000').then(
      () => assert.fail('store should fail'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof KeyringUnavailableError);
    prompts.answers.push((actions) => actions[0]);
    assert.equal(await offerSessionOnlyKey(error), true);
    assert.equal(prompts.messages[0].level, 'warning');
    assert.equal(prompts.messages[0].modal, true);
    assert.match(prompts.messages[0].text, /locked collection/);
    assert.match(prompts.messages[0].detail ?? '', /keyring/i);
    store.storeForSession('nilvera.apiKey.test', 'SESSION-ONLY-KEY-0000000000');
    assert.equal(await store.get('nilvera.apiKey.test'), 'SESSION-ONLY-KEY-0000000000');
    prompts.answers.push(() => undefined);
    assert.equal(await offerSessionOnlyKey(error), false, 'dismissing must not keep the key');
    store.dispose();
    changed.dispose();
  });
});

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : [p];
  });
}

suite('Canary key', function () {
  this.timeout(120_000);
  const canary = `CANARY${randomBytes(24).toString('hex').toUpperCase()}`;
  const prompts = new ScriptedPrompts<PickItem>();
  let api: NilveraExtensionApi;
  let restore: () => void = () => undefined;

  suiteSetup(async () => {
    api = await activateExtension();
    restore = api.testing.replacePrompts(prompts);
  });
  suiteTeardown(async () => {
    restore();
    await resetShell(api);
  });

  test('a stored key appears in no log, setting or message after every command ran', async () => {
    const { services } = api.testing;
    await config().update(Settings.environment, 'sandbox', vscode.ConfigurationTarget.Global);
    assertSandboxActive();
    // The canary goes in through the UI: typed into the key box, rejected by the check, saved anyway.
    prompts.inputs.push(canary);
    prompts.answers.push((actions) => actions[0]);
    await vscode.commands.executeCommand(Commands.apiKeySet);
    assert.equal(await services.keys.get(services.secretName('sandbox')), canary);

    // Every contributed command, with every prompt answered by the canary or the sandbox.
    prompts.input = canary;
    // Only ever the sandbox: the canary must not travel to a real host.
    prompts.pick = (items) => items.find((i) => i.environment === 'sandbox');
    const contributed = ((vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { contributes: { commands: Array<{ command: string }> } }).contributes.commands)
      .map((c) => c.command)
      .filter((c) => c !== Commands.apiKeyClear);
    for (const command of [...contributed, Commands.apiKeyClear]) {
      await vscode.commands.executeCommand(command);
    }
    prompts.input = undefined;
    prompts.pick = undefined;
    assert.ok(prompts.messages.length >= 3, `only ${prompts.messages.length} messages were shown`);

    const shown = JSON.stringify({ messages: prompts.messages, boxes: prompts.inputBoxes.map((b) => ({ ...b, validateInput: undefined })), bar: api.testing.statusBar().snapshot() });
    assert.ok(!shown.includes(canary), 'the canary appears in a message, an input box or the status bar');

    const settings = JSON.stringify(vscode.workspace.getConfiguration()) + JSON.stringify(config().inspect(Settings.customUrl));
    assert.ok(settings.length > 1000, 'the settings dump looks empty');
    assert.ok(!settings.includes(canary), 'the canary appears in the settings');

    // The log file of this window (LogOutputChannel writes to disk shortly after each line).
    const windowLogs = path.resolve(api.testing.logUri.fsPath, '..', '..');
    await waitFor(() => filesUnder(windowLogs).some((f) => /GET \/general\/Company 401/.test(fs.readFileSync(f, 'utf8'))), 'the request log line on disk', 15_000);
    const leaking = filesUnder(windowLogs).filter((f) => fs.readFileSync(f, 'utf8').includes(canary));
    assert.deepEqual(leaking, [], 'the canary appears in log files');
  });
});
