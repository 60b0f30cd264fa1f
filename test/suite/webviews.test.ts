// The webview forms in a real extension host, against the sandbox the extension starts: the CSP and
// resource roots of every form, one panel per record, the host ignoring malformed page messages, and
// each form's load → save round trip checked on the sandbox's own state. The page's part is played
// through the internal `nilvera.internal.forms.simulate` command (the UI suite drives the real page).
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { FormCommands, Settings } from '../../src/constants';
import { completeVkn } from '../../src/domain/taxId';
import type { NilveraExtensionApi } from '../../src/extension';
import { defaultProfileId, profileSecretName } from '../../src/shell/profileStore';
import { activateExtension } from '../support/extension';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import type { HostMessage, InitMessage, ResponseMessage } from '../../src/webviews/protocol';
import { waitFor } from '../support/waitFor';

interface PanelInfo {
  viewType: string;
  recordKey: string;
  title: string;
  html: string;
  cspSource: string;
  localResourceRoots: string[];
  enableScripts: boolean;
  /** What the page last reported of its draft. */
  draft: 'none' | 'clean' | 'dirty';
}

interface SandboxState {
  company: Record<string, unknown>;
  certificates: Array<Record<string, unknown>>;
  mailing: Array<{ ModuleID: string; IsActive: boolean }>;
  taxOffice: { UserName: string | null; Password: string | null };
}

async function panels(): Promise<PanelInfo[]> {
  return (await vscode.commands.executeCommand<PanelInfo[]>(FormCommands.inspect)) ?? [];
}

async function simulate(recordKey: string, message: unknown): Promise<HostMessage[]> {
  const answers = await vscode.commands.executeCommand<HostMessage[] | undefined>(FormCommands.simulate, recordKey, message);
  assert.ok(answers, `no open form for ${recordKey}`);
  return answers;
}

async function init(recordKey: string): Promise<InitMessage> {
  const answers = await simulate(recordKey, { type: 'ready' });
  const found = answers.find((m): m is InitMessage => m.type === 'init');
  assert.ok(found, `no init for ${recordKey}: ${JSON.stringify(answers)}`);
  return found;
}

let requestIds = 100;
async function send(recordKey: string, message: Record<string, unknown>): Promise<ResponseMessage> {
  const answers = await simulate(recordKey, { ...message, requestId: requestIds++ });
  assert.equal(answers.length, 1, JSON.stringify(answers));
  assert.equal(answers[0].type, 'response');
  return answers[0] as ResponseMessage;
}

async function panelFor(recordKey: string): Promise<PanelInfo> {
  return waitFor(async () => (await panels()).find((p) => p.recordKey === recordKey), `the ${recordKey} panel`);
}

function cspOf(html: string): Map<string, string[]> {
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html);
  assert.ok(meta, 'the page has no CSP meta tag');
  const directives = new Map<string, string[]>();
  for (const part of meta[1].split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name, sources);
  }
  return directives;
}

/** Closes every editor and waits until the forms' panels are gone. */
async function closeAll(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await waitFor(async () => ((await panels()).length === 0 ? true : undefined), 'the panels to close');
}

suite('Webview forms', function () {
  this.timeout(60_000);
  let api: NilveraExtensionApi;
  let sandbox: { url: string; key: string };
  const prompts = new ScriptedPrompts();
  let restorePrompts: () => void = () => undefined;

  async function sandboxState(): Promise<SandboxState> {
    const response = await fetch(`${sandbox.url}/__sandbox/state`);
    return (await response.json()) as SandboxState;
  }

  async function sandboxApi<T>(path: string): Promise<{ status: number; body: T }> {
    const response = await fetch(`${sandbox.url}${path}`, { headers: { Authorization: `Bearer ${sandbox.key}`, Accept: 'application/json' } });
    return { status: response.status, body: (await response.json()) as T };
  }

  async function writesSince(mark: number): Promise<string[]> {
    const response = await fetch(`${sandbox.url}/__sandbox/requests`);
    const body = (await response.json()) as unknown;
    const log = (Array.isArray(body) ? body : ((body as { requests?: unknown[] }).requests ?? [])) as Array<{ method: string; path: string }>;
    return log.slice(mark).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
  }

  async function requestCount(): Promise<number> {
    const response = await fetch(`${sandbox.url}/__sandbox/requests`);
    const body = (await response.json()) as unknown;
    return (Array.isArray(body) ? body : ((body as { requests?: unknown[] }).requests ?? [])).length;
  }

  /** A valid VKN the sandbox has no customer for. */
  async function freeVkn(): Promise<string> {
    for (;;) {
      const vkn = completeVkn(String(100_000_000 + (randomBytes(4).readUInt32BE() % 800_000_000)));
      const found = await sandboxApi(`/general/Customers/GetCustomerInfo/${vkn}`);
      if (found.status === 404) return vkn;
    }
  }

  suiteSetup(async () => {
    api = await activateExtension();
    restorePrompts = api.testing.replacePrompts(prompts);
    const running = api.testing.services.sandbox.current() ?? (await api.testing.services.sandbox.ensure(randomBytes(16).toString('hex')));
    sandbox = { url: running.url, key: running.key };
    await api.testing.services.keys.store(profileSecretName(defaultProfileId('sandbox')), sandbox.key);
    await vscode.workspace.getConfiguration(Settings.section).update(Settings.environment, 'sandbox', vscode.ConfigurationTarget.Global);
  });

  suiteTeardown(async () => {
    await closeAll();
    restorePrompts();
  });

  setup(() => {
    prompts.messages.length = 0;
    prompts.answer = () => undefined;
  });

  test('every form has a strict CSP with a fresh nonce, scripts only from the built webview assets', async () => {
    await vscode.commands.executeCommand(FormCommands.company);
    await vscode.commands.executeCommand(FormCommands.settings);
    await vscode.commands.executeCommand(FormCommands.customer);
    await vscode.commands.executeCommand(FormCommands.certificate);
    const open = await panels();
    assert.deepEqual(open.map((p) => p.viewType).sort(), ['nilvera.form.certificate', 'nilvera.form.company', 'nilvera.form.customer', 'nilvera.form.settings']);
    const nonces = new Set<string>();
    for (const panel of open) {
      const csp = cspOf(panel.html);
      assert.deepEqual(csp.get('default-src'), ["'none'"], panel.viewType);
      assert.deepEqual(csp.get('connect-src'), ["'none'"], panel.viewType);
      const script = csp.get('script-src') ?? [];
      assert.equal(script.length, 1, `${panel.viewType}: script-src ${script.join(' ')}`);
      const nonce = /^'nonce-([A-Za-z0-9+/=]{16,})'$/.exec(script[0])?.[1];
      assert.ok(nonce, `${panel.viewType}: script-src is not a nonce: ${script[0]}`);
      nonces.add(nonce);
      assert.ok(!(csp.get('style-src') ?? []).includes("'unsafe-inline'"), 'no unsafe-inline styles');
      assert.deepEqual(csp.get('font-src'), panel.cspSource.split(/\s+/));
      // Every script element carries the nonce and loads the forms bundle from dist/webview.
      const scripts = [...panel.html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);
      assert.equal(scripts.length, 1);
      assert.match(scripts[0], new RegExp(`nonce="${nonce.replace(/[+/=]/g, '\\$&')}"`));
      assert.match(scripts[0], /src="[^"]*\/dist\/webview\/forms\/main\.js"/);
      assert.ok(!/\son\w+=/i.test(panel.html), 'no inline event handlers');
      assert.equal(panel.enableScripts, true);
      assert.equal(panel.localResourceRoots.length, 1);
      assert.match(panel.localResourceRoots[0], /\/dist\/webview$/);
    }
    assert.equal(nonces.size, open.length, 'each render has its own nonce');
    await closeAll();
  });

  test('opening the same record twice focuses the existing panel', async () => {
    /** The label of the focused editor tab when it is a webview panel. */
    const activeWebviewTab = () => {
      const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
      return tab?.input instanceof vscode.TabInputWebview ? tab.label : undefined;
    };
    await vscode.commands.executeCommand(FormCommands.company);
    const companyTitle = (await panels()).find((p) => p.recordKey === 'company')?.title;
    assert.ok(companyTitle);
    await vscode.commands.executeCommand(FormCommands.settings);
    const settingsTitle = (await panels()).find((p) => p.recordKey !== 'company')?.title;
    assert.ok(settingsTitle && settingsTitle !== companyTitle, 'the two panels have different titles');
    await waitFor(async () => activeWebviewTab() === settingsTitle || undefined, 'the settings panel in front');
    await vscode.commands.executeCommand(FormCommands.company);
    const open = await panels();
    assert.equal(open.filter((p) => p.recordKey === 'company').length, 1);
    assert.equal(open.length, 2);
    await waitFor(async () => activeWebviewTab() === companyTitle || undefined, `the company panel focused (active tab: ${activeWebviewTab()})`);
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.label === companyTitle);
    assert.equal(tabs.length, 1, 'one company tab, not a second one');
    await closeAll();
  });

  test('the host ignores malformed page messages and sends nothing to the API', async () => {
    await vscode.commands.executeCommand(FormCommands.company);
    await panelFor('company');
    await init('company');
    const mark = await requestCount();
    const malformed: unknown[] = [
      null,
      'save',
      42,
      { type: 'unknown' },
      { type: 'save', requestId: 'x', values: {} },
      { type: 'save', requestId: 1, values: { City: 7 } },
      { type: 'save', requestId: 1, values: { NotAField: 'x' } },
      { type: 'save', requestId: 1, values: { City: 'x'.repeat(5000) } },
      { type: 'save', requestId: -1, values: {} },
      { type: 'lookup', requestId: 1, taxNumber: 'x'.repeat(100) },
      { type: 'draft', dirty: 'yes', values: {} },
    ];
    for (const m of malformed) assert.deepEqual(await simulate('company', m), [], JSON.stringify(m)?.slice(0, 80));
    assert.deepEqual(await writesSince(mark), []);
    await closeAll();
  });

  test('company form: loads the record, refuses an invalid e-mail without a request, saves two changed fields', async () => {
    await vscode.commands.executeCommand(FormCommands.company);
    await panelFor('company');
    const before = await sandboxState();
    const { spec, values } = await init('company');
    assert.equal(values.Name, before.company.Name);
    assert.equal(values.City, before.company.City ?? '');
    const fields = spec.sections.flatMap((s) => s.fields);
    assert.ok(fields.find((f) => f.name === 'Name')?.readOnly, 'Name is read-only');
    assert.ok(fields.find((f) => f.name === 'TaxNumber')?.readOnly, 'TaxNumber is read-only');
    assert.deepEqual(fields.find((f) => f.name === 'PaymentMeansCode')?.options?.map((o) => o.value).filter(Boolean), ['ODEMETIPIMUHTELIF', 'NAKIT', 'CEK', 'BANKACEKI', 'HAVALE_EFT', 'KREDIKARTI_BANKAKARTI']);

    const mark = await requestCount();
    const invalid = await send('company', { type: 'save', values: { ...values, Email: 'not-an-email' } });
    assert.equal(invalid.ok, false);
    assert.ok(!invalid.ok && invalid.fieldErrors.Email, JSON.stringify(invalid));
    assert.deepEqual(await writesSince(mark), [], 'an invalid form is never sent');

    const city = `Kütahya ${randomBytes(2).toString('hex')}`;
    const saved = await send('company', { type: 'save', values: { ...values, City: city, PostalCode: '43100', Name: 'Tampered name' } });
    assert.ok(saved.ok, JSON.stringify(saved));
    assert.equal(saved.values?.City, city);
    const after = await sandboxState();
    assert.equal(after.company.City, city);
    assert.equal(after.company.PostalCode, '43100');
    assert.equal(after.company.Name, before.company.Name, 'a read-only field is not sent');
    assert.deepEqual(await writesSince(mark), ['PUT /general/Company']);
    await closeAll();
  });

  test('customer form: a 422 lands on the tax number field; create, then edit the same record', async () => {
    await vscode.commands.executeCommand(FormCommands.customer);
    await panelFor('customer:new');
    const { values } = await init('customer:new');
    const existing = await sandboxApi<{ Content: Array<{ TaxNumber: string }> }>('/general/Customers?Page=1&PageSize=1');
    const taken = existing.body.Content[0].TaxNumber;
    const rejected = await send('customer:new', { type: 'save', values: { ...values, TaxNumber: taken, Name: 'Duplicate A.Ş.' } });
    assert.ok(!rejected.ok);
    assert.ok(!rejected.ok && /tax number/i.test(rejected.fieldErrors.TaxNumber ?? ''), JSON.stringify(rejected));

    const vkn = await freeVkn();
    const created = await send('customer:new', { type: 'save', values: { ...values, TaxNumber: vkn, Name: 'Form Test Ltd. Şti.', City: 'Ankara', Email: 'info@formtest.com.tr' } });
    assert.ok(created.ok, JSON.stringify(created));
    const record = await sandboxApi<{ ID: number; Name: string; City: string }>(`/general/Customers/GetCustomerInfo/${vkn}`);
    assert.equal(record.status, 200);
    assert.equal(record.body.Name, 'Form Test Ltd. Şti.');
    const key = `customer:${record.body.ID}`;
    assert.equal(created.spec?.recordKey, key, 'the form becomes the new record\'s editor');

    const edited = await send(key, { type: 'save', values: { ...created.values, City: 'İzmir' } });
    assert.ok(edited.ok, JSON.stringify(edited));
    assert.equal((await sandboxApi<{ City: string }>(`/general/Customers/${record.body.ID}`)).body.City, 'İzmir');
    // Opening that customer again focuses the same panel.
    await vscode.commands.executeCommand(FormCommands.customer, { customerId: record.body.ID });
    assert.equal((await panels()).filter((p) => p.recordKey === key).length, 1);
    await closeAll();
  });

  test('customer form: "Look up in registry" fills the title from the registry', async () => {
    const registry = await sandboxApi<{ Content: Array<{ TaxNumber: string; Title: string }> }>('/general/GlobalCompany?Page=1&PageSize=1');
    const entry = registry.body.Content[0];
    await vscode.commands.executeCommand(FormCommands.customer, { prefill: { City: 'Bursa' } });
    await panelFor('customer:new');
    const { values, draft } = await init('customer:new');
    // A prefill arrives as unsaved changes over an empty record, so the user can save it as it is.
    assert.equal(draft?.City, 'Bursa', 'prefill reaches the form');
    assert.equal(values.City, '', 'the prefill is not the baseline');
    const found = await send('customer:new', { type: 'lookup', taxNumber: entry.TaxNumber });
    assert.ok(found.ok, JSON.stringify(found));
    assert.equal(found.values?.Name, entry.Title);
    await closeAll();
  });

  test('certificate form: the password is sent but never sent back to the page; left empty it is kept', async () => {
    await vscode.commands.executeCommand(FormCommands.certificate);
    await panelFor('certificate:new');
    const { values } = await init('certificate:new');
    const serial = `FORM-${randomBytes(4).toString('hex').toUpperCase()}`;
    const secret = `pw-${randomBytes(6).toString('hex')}`;
    const added = await send('certificate:new', { type: 'save', values: { ...values, SerialNo: serial, Type: 'EIMZA', StartDate: '2026-01-01', EndDate: '2027-01-01', Password: secret } });
    assert.ok(added.ok, JSON.stringify(added));
    assert.ok(!JSON.stringify(added).includes(secret), 'the password is not echoed');
    const stored = (await sandboxState()).certificates.find((c) => c.SerialNo === serial);
    assert.ok(stored);
    assert.equal(stored.Password, secret);
    assert.equal(stored.Type, 'EIMZA');
    const key = `certificate:${String(stored.ID)}`;
    const reloaded = await init(key);
    assert.equal(reloaded.values.Password, '');
    assert.ok(!JSON.stringify(reloaded).includes(secret));

    const updated = await send(key, { type: 'save', values: { ...reloaded.values, Description: 'Renewed' } });
    assert.ok(updated.ok, JSON.stringify(updated));
    const after = (await sandboxState()).certificates.find((c) => c.SerialNo === serial);
    assert.equal(after?.Description, 'Renewed');
    assert.equal(after?.Password, secret, 'an empty password field keeps the stored password');

    // Changed elsewhere (the portal, another window): Reload shows the server's record.
    const client = (await api.testing.services.client()) as unknown as { certificates: { update(c: unknown): Promise<unknown> } };
    await client.certificates.update({ ...after, Description: 'Changed elsewhere' });
    const fresh = await send(key, { type: 'reload' });
    assert.ok(fresh.ok && fresh.values?.Description === 'Changed elsewhere', JSON.stringify(fresh));

    const backwards = await send(key, { type: 'save', values: { ...reloaded.values, StartDate: '2026-05-01', EndDate: '2026-04-01' } });
    assert.ok(!backwards.ok && backwards.fieldErrors.EndDate, JSON.stringify(backwards));
    await closeAll();
  });

  test('settings page: mailing switch and tax office credentials reach the sandbox; an empty password is refused by the server', async () => {
    await vscode.commands.executeCommand(FormCommands.settings);
    await panelFor('settings');
    const before = await sandboxState();
    const { values } = await init('settings');
    const emailWas = before.mailing.find((m) => m.ModuleID === 'Portal')?.IsActive;
    assert.equal(values.EmailActive, emailWas);
    assert.equal(values.TaxOfficePassword, '', 'the stored password is not sent to the page');

    const refused = await send('settings', { type: 'save', values: { ...values, TaxOfficeUserName: 'yeni.kullanici' } });
    assert.ok(!refused.ok && refused.fieldErrors.TaxOfficePassword, JSON.stringify(refused));

    const saved = await send('settings', { type: 'save', values: { ...values, EmailActive: !emailWas, TaxOfficeUserName: 'yeni.kullanici', TaxOfficePassword: 'Gizli-123' } });
    assert.ok(saved.ok, JSON.stringify(saved));
    const after = await sandboxState();
    assert.equal(after.mailing.find((m) => m.ModuleID === 'Portal')?.IsActive, !emailWas);
    assert.equal(after.taxOffice.UserName, 'yeni.kullanici');
    assert.equal(after.taxOffice.Password, 'Gizli-123');
    await closeAll();
  });

  test('closing a form with unsaved changes offers to restore the draft', async () => {
    await vscode.commands.executeCommand(FormCommands.company);
    await panelFor('company');
    const { values } = await init('company');
    // The real page reports a clean draft once it has started: wait for that report before playing an
    // edit, or it would arrive after the edit and replace it (a busy machine made this flaky).
    await waitFor(async () => ((await panelFor('company')).draft !== 'none' ? true : undefined), 'the page\'s own draft report', 30_000);
    await simulate('company', { type: 'draft', dirty: true, values: { ...values, City: 'Draft City' } });
    assert.equal((await panelFor('company')).draft, 'dirty');
    prompts.answer = (actions) => actions[0];
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor(async () => (prompts.messages.length > 0 ? true : undefined), 'the warning');
    assert.equal(prompts.messages[0].level, 'warning');
    assert.match(prompts.messages[0].text, /unsaved changes/);
    await panelFor('company');
    const restored = await init('company');
    assert.equal(restored.draft?.City, 'Draft City');
    assert.equal(restored.values.City, (await sandboxState()).company.City, 'the baseline is the server record');
    await closeAll();
  });
});
