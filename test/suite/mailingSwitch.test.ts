// One mailing switch (src/shell/mailingSwitch.ts) for the Account view's checkbox, the palette's
// Mailing Settings and the settings form: turning e-mail or WhatsApp sending off on the live account
// asks first, "live" being the environment of the profile the change goes to. Here the settings form's
// save runs against a sandbox as a form of a Production profile and of a Test profile would (its
// module and the prompt seam are this bundle's own copies).
import * as assert from 'node:assert/strict';
import { createClient } from '../../src/api';
import { replacePrompts } from '../../src/shell/prompts';
import { confirmMailingChange } from '../../src/shell/mailingSwitch';
import { settingsForm } from '../../src/webviews/forms/settings';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { sandboxState, startTestSandbox, type SandboxHandle } from '../support/sandbox';

suite('Mailing switch: one path, live decided by the profile', function () {
  this.timeout(60_000);
  let sandbox: SandboxHandle;
  const prompts = new ScriptedPrompts();
  let restore: () => void = () => undefined;

  suiteSetup(async () => {
    sandbox = await startTestSandbox({ customers: 5, registry: 100, seed: 39 });
    restore = replacePrompts(prompts);
  });
  suiteTeardown(async () => {
    restore();
    await sandbox?.close();
  });
  setup(() => {
    prompts.reset();
  });

  const emailOn = async () => (await sandboxState(sandbox)).mailing as Array<{ ModuleID: string; IsActive: boolean }>;
  const isOn = async (module: string) => (await emailOn()).find((m) => m.ModuleID === module)?.IsActive;

  test('only turning a channel off on a Production profile asks, in a modal dialog', async () => {
    assert.equal(await confirmMailingChange('production', 'email', false), false, 'declined');
    assert.equal(prompts.messages.length, 1);
    assert.equal(prompts.messages[0].modal, true);
    assert.match(prompts.messages[0].text, /live account/);
    for (const [environment, on] of [['production', true], ['test', false], ['sandbox', false], ['custom', false]] as const) {
      assert.equal(await confirmMailingChange(environment, 'whatsapp', on), true, `${environment} ${on}`);
    }
    assert.equal(prompts.messages.length, 1, 'no other change asked');
  });

  test('the settings form of a Production profile asks before turning e-mail off: declined, nothing is saved; accepted, it is', async () => {
    const client = createClient({ baseUrl: sandbox.url, getApiKey: async () => sandbox.keys.full });
    const form = settingsForm();
    const loaded = await form.load(client);
    assert.equal(loaded.values.EmailActive, true);
    sandbox.resetRequestLog();
    const changed = { ...loaded.values, EmailActive: false, TaxOfficeUserName: 'changed-too', TaxOfficePassword: 'changed-too' };
    await assert.rejects(form.save(client, changed, loaded.values, { environment: 'production' }), /Nothing was saved/);
    assert.equal(prompts.messages.length, 1, 'one question');
    assert.deepEqual(sandbox.requestLog().filter((r) => r.method !== 'GET'), [], 'declined: no change was sent, the tax office neither');
    assert.equal(await isOn('Portal'), true);

    prompts.answer = (actions) => actions[0];
    await form.save(client, changed, loaded.values, { environment: 'production' });
    assert.equal(await isOn('Portal'), false, 'accepted: e-mail sending is off');
  });

  test('the settings form of a Test profile turns sending off without a question', async () => {
    const client = createClient({ baseUrl: sandbox.url, getApiKey: async () => sandbox.keys.full });
    const form = settingsForm();
    const loaded = await form.load(client);
    await form.save(client, { ...loaded.values, EmailActive: !loaded.values.EmailActive, ChatActive: !loaded.values.ChatActive }, loaded.values, { environment: 'test' });
    assert.deepEqual(prompts.messages, []);
    assert.equal(await isOn('Portal'), !loaded.values.EmailActive);
    assert.equal(await isOn('WhatsApp'), !loaded.values.ChatActive);
  });
});
