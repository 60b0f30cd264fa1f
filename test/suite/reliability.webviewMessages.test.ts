// Reliability: what a form's page sends its host is untrusted. For each of the four forms, malformed,
// oversized and unexpected messages (through `nilvera.internal.forms.simulate`, which hands the
// host the raw value) must be dropped: no answer, no API request, no change on the server, and one
// log line naming the form and the reason without the message's content. Afterwards a valid save
// still works, so the panel is not wedged.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FormCommands } from '../../src/constants';
import { completeVkn } from '../../src/domain/taxId';
import type { NilveraExtensionApi } from '../../src/extension';
import { activateExtension } from '../support/extension';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { LIMITS, type FormKind, type FormValues, type HostMessage, type InitMessage, type ResponseMessage } from '../../src/webviews/protocol';
import { requestsSettled } from '../support/requestsSettled';
import { startTestSandbox, type SandboxHandle } from '../support/sandbox';
import { suiteLog } from './report';
import { leaveCustomEnvironment, useSandboxEnvironment } from '../support/sandboxSuite';
import { waitFor } from '../support/waitFor';

interface FormUnderTest {
  kind: FormKind;
  command: string;
  recordKey: string;
}

const FORMS: FormUnderTest[] = [
  { kind: 'company', command: FormCommands.company, recordKey: 'company' },
  { kind: 'customer', command: FormCommands.customer, recordKey: 'customer:new' },
  { kind: 'certificate', command: FormCommands.certificate, recordKey: 'certificate:new' },
  { kind: 'settings', command: FormCommands.settings, recordKey: 'settings' },
];

/** A bad message and the reason the host must give for dropping it. */
interface BadMessage {
  name: string;
  message: unknown;
  reason: RegExp;
}


function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : e.isFile() ? [p] : [];
  });
}

async function simulate(recordKey: string, message: unknown): Promise<HostMessage[]> {
  const answers = await vscode.commands.executeCommand<HostMessage[] | undefined>(FormCommands.simulate, recordKey, message);
  assert.ok(answers, `no open form for ${recordKey}`);
  return answers;
}

/** The bad messages for one form, built around its real field names and values. */
function badMessages(form: FormUnderTest, values: FormValues, textField: string, foreignField: string, marker: string, ids: { stale: number; next: () => number }): BadMessage[] {
  const save = (extra: Record<string, unknown> = {}) => ({ type: 'save', requestId: ids.next(), values, ...extra });
  const otherKind = FORMS.find((f) => f.kind !== form.kind)!.kind;
  const severalMb = 'x'.repeat(6 * 1024 * 1024);
  return [
    { name: 'null', message: null, reason: /null, not an object/ },
    { name: 'a string', message: 'save', reason: /a string, not an object/ },
    { name: 'a number', message: 42, reason: /a number, not an object/ },
    { name: 'a boolean', message: true, reason: /a boolean, not an object/ },
    { name: 'an empty array', message: [], reason: /an array/ },
    { name: 'an array holding a save', message: [save()], reason: /an array/ },
    { name: 'no type', message: { requestId: ids.next(), values }, reason: /no "type"/ },
    { name: 'a numeric type', message: { type: 3 }, reason: /"type" is not text/ },
    { name: 'an unknown type', message: { type: 'explode' }, reason: /unknown type explode/ },
    { name: "the host's own type", message: { type: 'response', requestId: ids.next(), ok: true, values }, reason: /unknown type response/ },
    { name: 'save without requestId', message: { type: 'save', values }, reason: /missing field\(s\) requestId/ },
    { name: 'save without values', message: { type: 'save', requestId: ids.next() }, reason: /missing field\(s\) values/ },
    { name: 'lookup without taxNumber', message: { type: 'lookup', requestId: ids.next() }, reason: /missing field\(s\) taxNumber/ },
    // Under the message limit as a whole, but no tax number: it must never reach the registry look-up as a URL.
    { name: 'a tax number of ~300 k characters', message: { type: 'lookup', requestId: ids.next(), taxNumber: '4'.repeat(LIMITS.messageChars - 200) }, reason: /"taxNumber" is not text of up to 32 characters/ },
    { name: 'save with an extra field', message: save({ extra: marker }), reason: /unexpected field\(s\) extra/ },
    { name: 'ready with an extra field', message: { type: 'ready', note: marker }, reason: /unexpected field\(s\) note/ },
    { name: 'requestId as text', message: { type: 'save', requestId: '7', values }, reason: /"requestId" is not a whole number/ },
    { name: 'fractional requestId', message: { type: 'reload', requestId: 1.5 }, reason: /"requestId" is not a whole number/ },
    { name: 'negative requestId', message: { type: 'reload', requestId: -1 }, reason: /"requestId" is not a whole number/ },
    { name: 'dirty as text', message: { type: 'draft', dirty: 'yes', values }, reason: /"dirty" is not true\/false/ },
    { name: 'values as text', message: { type: 'save', requestId: ids.next(), values: marker }, reason: /"values" is not a plain object/ },
    { name: 'values as an array', message: { type: 'save', requestId: ids.next(), values: [marker] }, reason: /"values" is not a plain object/ },
    { name: 'a number as a value', message: { type: 'save', requestId: ids.next(), values: { ...values, [textField]: 7 } }, reason: /neither text nor true\/false/ },
    { name: 'an object as a value', message: { type: 'save', requestId: ids.next(), values: { ...values, [textField]: { value: marker } } }, reason: /neither text nor true\/false/ },
    { name: 'save with an unknown field name', message: { type: 'save', requestId: ids.next(), values: { ...values, NotAField: marker } }, reason: /unknown field name\(s\) in "values": NotAField/ },
    { name: 'save carrying another form\'s field', message: { type: 'save', requestId: ids.next(), values: { ...values, [foreignField]: marker } }, reason: new RegExp(`unknown field name\\(s\\) in "values": ${foreignField}`) },
    { name: 'a value over the size limit', message: { type: 'save', requestId: ids.next(), values: { ...values, [textField]: marker + 'x'.repeat(LIMITS.valueLength) } }, reason: /longer than 4000 characters/ },
    { name: 'a message of several MB', message: save({ padding: severalMb }), reason: /larger than 300000 characters/ },
    { name: 'a value of several MB', message: { type: 'draft', dirty: true, values: { ...values, [textField]: severalMb } }, reason: /larger than 300000 characters/ },
    { name: 'a million-entry array', message: { type: 'save', requestId: ids.next(), values: new Array(1_000_000).fill(marker) }, reason: /larger than 300000 characters/ },
    {
      name: 'an own __proto__ key',
      message: JSON.parse(JSON.stringify({ X: { type: 'save', requestId: ids.next(), values } }).replace('"X"', '"__proto__"')) as unknown,
      reason: /a prototype key \(__proto__\)/,
    },
    {
      name: '__proto__ inside values',
      message: JSON.parse(`{"type":"save","requestId":${ids.next()},"values":{"__proto__":{"polluted":"${marker}"}}}`) as unknown,
      reason: /a prototype key in "values" \(__proto__\)/,
    },
    { name: 'a constructor.prototype shape', message: save({ constructor: { prototype: { polluted: marker } } }), reason: /a prototype key \(constructor\)/ },
    { name: 'fields inherited through the prototype', message: Object.create(save()) as unknown, reason: /not a plain object \(it inherits properties\)/ },
    { name: 'a replayed request id', message: { type: 'save', requestId: ids.stale, values }, reason: new RegExp(`stale request id ${ids.stale}`) },
    { name: 'an older request id', message: { type: 'save', requestId: ids.stale - 1, values }, reason: /stale request id/ },
    { name: 'a save for another form kind', message: save({ kind: otherKind }), reason: new RegExp(`meant for the ${otherKind} form`) },
    { name: 'a save for another record', message: save({ recordKey: `${form.kind}:999999` }), reason: /meant for another record/ },
    { name: 'an unknown form kind', message: save({ kind: 'invoice' }), reason: /"kind" is not a form kind/ },
  ];
}

suite('Reliability: webview messages', function () {
  this.timeout(180_000);
  let api: NilveraExtensionApi;
  let sandbox: SandboxHandle;
  const prompts = new ScriptedPrompts();
  let restorePrompts: () => void = () => undefined;
  const specs = new Map<FormKind, InitMessage>();
  const tried: Record<string, number> = {};

  async function sandboxState(): Promise<string> {
    return (await fetch(`${sandbox.url}/__sandbox/state`)).text();
  }

  /** The host's "dropped" lines for a form, from the log files on disk. */
  function droppedLines(form: FormUnderTest): string[] {
    const logRoot = path.resolve(api.testing.logUri.fsPath, '..', '..');
    const prefix = `Form ${form.kind} (${form.recordKey}): dropped a page message`;
    return filesUnder(logRoot).flatMap((f) => fs.readFileSync(f, 'utf8').split('\n').filter((l) => l.includes(prefix)));
  }

  async function freeVkn(): Promise<string> {
    for (;;) {
      const vkn = completeVkn(String(100_000_000 + (randomBytes(4).readUInt32BE() % 800_000_000)));
      const found = await fetch(`${sandbox.url}/general/Customers/GetCustomerInfo/${vkn}`, { headers: { Authorization: `Bearer ${sandbox.keys.full}` } });
      if (found.status === 404) return vkn;
    }
  }

  /** A valid change per form, and how to see it on the server. */
  async function validSave(form: FormUnderTest, values: FormValues): Promise<{ values: FormValues; landed: (state: Record<string, unknown>) => boolean }> {
    const tag = randomBytes(3).toString('hex');
    switch (form.kind) {
      case 'company':
        return { values: { ...values, City: `Eskişehir ${tag}` }, landed: (s) => (s.company as { City?: string }).City === `Eskişehir ${tag}` };
      case 'settings': {
        const next = !values.EmailActive;
        return { values: { ...values, EmailActive: next }, landed: (s) => (s.mailing as Array<{ ModuleID: string; IsActive: boolean }>).find((m) => m.ModuleID === 'Portal')?.IsActive === next };
      }
      case 'customer': {
        const vkn = await freeVkn();
        const count = (s: Record<string, unknown>) => (s.counts as { customers: number }).customers;
        const before = count(JSON.parse(await sandboxState()) as Record<string, unknown>);
        return { values: { ...values, TaxNumber: vkn, Name: `Mesaj Testi ${tag} Ltd. Şti.`, City: 'Ankara' }, landed: (s) => count(s) === before + 1 };
      }
      case 'certificate': {
        const serial = `MSG-${tag.toUpperCase()}`;
        return {
          values: { ...values, SerialNo: serial, Type: 'EIMZA', StartDate: '2026-01-01', EndDate: '2027-01-01', Password: `pw-${tag}` },
          landed: (s) => (s.certificates as Array<{ SerialNo: string }>).some((c) => c.SerialNo === serial),
        };
      }
    }
  }

  suiteSetup(async () => {
    sandbox = await startTestSandbox({ customers: 30, seed: 11 });
    api = await activateExtension();
    restorePrompts = api.testing.replacePrompts(prompts);
    await useSandboxEnvironment(api, sandbox);
    for (const form of FORMS) {
      await vscode.commands.executeCommand(form.command);
      await waitFor(async () => ((await simulate(form.recordKey, { type: 'ready' })).find((m): m is InitMessage => m.type === 'init' && m.spec.sections.length > 0)), `${form.kind} to load`).then((init) =>
        specs.set(form.kind, init),
      );
    }
  });

  suiteTeardown(async () => {
    restorePrompts();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await leaveCustomEnvironment(api);
    await sandbox.close();
    const total = Object.values(tried).reduce((a, b) => a + b, 0);
    suiteLog(`      webview messages dropped: ${total} (${Object.entries(tried).map(([k, n]) => `${k} ${n}`).join(', ')})`);
  });

  for (const form of FORMS) {
    test(`${form.kind} form: malformed, oversized and unexpected messages are dropped and logged; a valid save still works`, async () => {
      const init = specs.get(form.kind);
      assert.ok(init, `${form.kind} did not load`);
      const fields = init.spec.sections.flatMap((s) => s.fields);
      const textField = fields.find((f) => (f.kind === 'text' || f.kind === 'textarea') && !f.readOnly)?.name;
      assert.ok(textField, 'the form has no text field');
      const own = new Set(fields.map((f) => f.name));
      const foreignField = [...specs.values()].flatMap((s) => s.spec.sections.flatMap((x) => x.fields.map((f) => f.name))).find((n) => !own.has(n));
      assert.ok(foreignField, 'no field of another form to send');
      // A valid request first: its id is the one the replays below reuse.
      const stale = 5000;
      const reloaded = await simulate(form.recordKey, { type: 'reload', requestId: stale });
      assert.equal((reloaded[0] as ResponseMessage | undefined)?.ok, true, JSON.stringify(reloaded).slice(0, 300));
      let nextId = stale + 1;
      const marker = `leak-marker-${randomBytes(8).toString('hex')}`;
      const bad = badMessages(form, init.values, textField, foreignField, marker, { stale, next: () => nextId++ });

      const logBefore = droppedLines(form).length;
      const requestsBefore = await requestsSettled(() => sandbox.requestLog().length, { quietMs: 1000 });
      const stateBefore = await sandboxState();
      for (const { name, message } of bad) {
        assert.deepEqual(await simulate(form.recordKey, message), [], `${name}: the host answered`);
      }
      tried[form.kind] = bad.length;

      // Nothing was acted on: no request, no change on the server, no polluted prototype.
      assert.equal(sandbox.requestLog().length, requestsBefore, `requests were made: ${JSON.stringify(sandbox.requestLog().slice(requestsBefore))}`);
      assert.equal(await sandboxState(), stateBefore, 'the sandbox state changed');
      assert.equal((Object.prototype as Record<string, unknown>).polluted, undefined, 'Object.prototype was polluted');
      assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype was polluted');
      assert.deepEqual(prompts.messages, [], 'a bad message made the extension show something');

      // One log line per message, in order, naming the form and the reason, without the content.
      const lines = await waitFor(() => {
        const all = droppedLines(form);
        return all.length >= logBefore + bad.length ? all.slice(logBefore) : undefined;
      }, `${bad.length} "dropped" log lines for ${form.kind}`);
      assert.equal(lines.length, bad.length);
      bad.forEach(({ name, reason }, i) => {
        assert.match(lines[i], reason, `${name}: log line "${lines[i]}"`);
        assert.ok(lines[i].length < 400, `${name}: log line of ${lines[i].length} characters`);
      });
      const logRoot = path.resolve(api.testing.logUri.fsPath, '..', '..');
      const leaking = filesUnder(logRoot).filter((f) => fs.readFileSync(f, 'utf8').includes(marker));
      assert.deepEqual(leaking, [], 'message content reached the log');

      // The panel is not wedged: a valid save goes through and lands on the server.
      const change = await validSave(form, init.values);
      const saved = await simulate(form.recordKey, { type: 'save', requestId: nextId++, values: change.values });
      assert.equal(saved.length, 1);
      assert.ok((saved[0] as ResponseMessage).ok, JSON.stringify(saved).slice(0, 400));
      assert.ok(change.landed(JSON.parse(await sandboxState()) as Record<string, unknown>), 'the save did not reach the sandbox');
      if (form.kind === 'customer') {
        const vkn = change.values.TaxNumber as string;
        const record = await fetch(`${sandbox.url}/general/Customers/GetCustomerInfo/${vkn}`, { headers: { Authorization: `Bearer ${sandbox.keys.full}` } });
        assert.equal(record.status, 200, 'the new customer is not on the server');
      }
      prompts.messages.length = 0;
    });
  }
});
