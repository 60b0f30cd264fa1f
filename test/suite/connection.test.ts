// "Nilvera: Check Connection" in a real extension host, against in-process sandboxes under both
// behaviour profiles and with a quirk the check does not know (registryLookupMissing=oddText):
// the command's verdicts, the report shown rendered (its read-only Markdown document in VS Code's
// preview), the summary notification, "Copy Report", and a canary key that must appear nowhere
// (report, notification, log).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ConnectionCommands } from '../../src/constants';
import type { NilveraExtensionApi } from '../../src/extension';
import type { CheckConnectionResult } from '../../src/commands/connection/checkConnection';
import { BEHAVIOUR_POINTS } from '../../src/sandbox/behaviour';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { setSandboxBehaviour, type SandboxHandle } from '../support/sandbox';
import { startSandboxSuite } from '../support/sandboxSuite';
import { suiteLog } from './report';

/** A key of the platform's shape that must never show up anywhere but the Authorization header. */
const CANARY = 'C0FFEE00CA9A4F1E5EC4E7C0FFEE00CA9A4F1E5EC4E7C0FFEE00CA9A4F1E5EC4';

function verdictMap(result: CheckConnectionResult): Record<string, string> {
  return Object.fromEntries(
    result.verdicts.map((v) => [v.point, v.verdict.kind === 'answer' ? v.verdict.answer : v.verdict.kind === 'differs' ? 'differs' : `none:${v.verdict.reason}`]),
  );
}

/** The rows only a write would show (Check Connection never writes). */
const WRITE_ONLY = new Set(['customerBatchBadRow', 'booleanAnswer', 'companyPutOmitted', 'templatePutOmitted', 'customerCreateAnswer', 'duplicateStatus', 'customerBatchStatus']);

/** Every list of this sandbox has records: how an empty one answers (emptyList) is not seen (test/suite/evidence.test.ts). */
function expectedFor(profile: 'default' | 'alternate'): Record<string, string> {
  return Object.fromEntries(
    Object.entries(BEHAVIOUR_POINTS).map(([point, spec]) => [
      point,
      WRITE_ONLY.has(point) ? 'none:wouldWrite' : point === 'emptyList' ? 'none:noEmptyList' : profile === 'default' ? spec.answers[0] : spec.alternate,
    ]),
  );
}

/** The active tab, once it is the Markdown preview of the report (the preview opens a moment after the command). */
async function reportPreviewTab(uri: vscode.Uri): Promise<vscode.Tab> {
  const name = path.posix.basename(uri.path);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    if (tab && tab.input instanceof vscode.TabInputWebview && /markdown\.preview/.test(tab.input.viewType) && tab.label.endsWith(name)) return tab;
    if (Date.now() > deadline) throw new Error(`the report's preview is not the active tab: ${tab?.label ?? 'none'}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every file under the extension's log folder, as text. */
function logText(logUri: vscode.Uri): string {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(fs.readFileSync(p, 'utf8'));
    }
  };
  walk(logUri.fsPath);
  return out.join('\n');
}

suite('Check Connection', function () {
  this.timeout(60_000);
  let sandbox: SandboxHandle;
  let api: NilveraExtensionApi;
  const prompts = new ScriptedPrompts();
  let close: () => Promise<void> = async () => undefined;

  suiteSetup(async () => {
    ({ sandbox, api, close } = await startSandboxSuite({ key: CANARY, customers: 60, registry: 200, seed: 21 }, prompts));
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await close();
  });

  setup(() => {
    prompts.messages.length = 0;
    prompts.answer = () => undefined;
  });

  async function runCheck(): Promise<CheckConnectionResult> {
    const result = await vscode.commands.executeCommand<CheckConnectionResult | undefined>(ConnectionCommands.check);
    assert.ok(result, `the command failed: ${JSON.stringify(prompts.messages)}`);
    return result;
  }

  for (const profile of ['default', 'alternate'] as const) {
    test(`${profile} profile: each row observable read-only is the profile's answer; writes are "not checked"; report shown read-only`, async () => {
      await setSandboxBehaviour(sandbox, { profile });
      sandbox.resetRequestLog();
      const result = await runCheck();
      assert.deepEqual(verdictMap(result), expectedFor(profile));
      // Read-only: GETs and the one bulk look-up POST, nothing else reached the server.
      const other = sandbox.requestLog().filter((r) => r.method !== 'GET' && !(r.method === 'POST' && /\/GlobalCompany\/GetGlobalCustomerInfo$/i.test(r.path)));
      assert.deepEqual(other, []);
      // Shown rendered: the Markdown preview of a read-only virtual document holding the report.
      await reportPreviewTab(result.uri);
      assert.equal(result.uri.scheme, 'nilvera-connection');
      const document = await vscode.workspace.openTextDocument(result.uri);
      assert.equal(document.getText(), result.markdown);
      assert.match(result.markdown, /^# Nilvera: Check Connection/);
      assert.match(result.markdown, /\| `customerBatchBadRow` \| not checked: would write \|/);
      assert.ok(!result.markdown.includes('⚠'), 'nothing differs from both profiles');
      // One summary notification, information level, with "Copy Report".
      const note = prompts.messages.find((m) => m.text.startsWith('Check Connection:'));
      assert.ok(note, JSON.stringify(prompts.messages));
      assert.equal(note.level, 'info');
      assert.deepEqual(note.actions, ['Copy Report']);
      suiteLog(`\n----- Check Connection report, sandbox profile "${profile}" -----\n${result.markdown}\n----- end of report -----\n`);
    });
  }

  test('a quirk the report does not know (registryLookupMissing=oddText): it "differs", a warning names it', async () => {
    await setSandboxBehaviour(sandbox, { profile: 'default', quirks: { registryLookupMissing: 'oddText' } });
    try {
      const result = await runCheck();
      assert.deepEqual(verdictMap(result), { ...expectedFor('default'), registryLookupMissing: 'differs' });
      assert.match(result.markdown, /> ⚠ The service differs from both sandbox profiles in these rows:\n> - `registryLookupMissing`: \*\*differs\*\*: `200 text\/plain/);
      const note = prompts.messages.find((m) => m.text.startsWith('Check Connection:'));
      assert.equal(note?.level, 'warning');
      assert.match(note?.text ?? '', /differs from both sandbox profiles in 1 row\(s\): registryLookupMissing\./);
    } finally {
      await setSandboxBehaviour(sandbox, { profile: 'default' });
    }
  });

  test('"Copy Report" from the notification puts the Markdown on the clipboard', async () => {
    await vscode.env.clipboard.writeText('');
    prompts.answer = (actions) => actions.find((a) => a === 'Copy Report');
    const result = await runCheck();
    const deadline = Date.now() + 5000;
    while ((await vscode.env.clipboard.readText()) !== result.markdown && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(await vscode.env.clipboard.readText(), result.markdown);
    // The title-bar command of the preview copies the report shown there, not the latest one.
    await reportPreviewTab(result.uri);
    const later = await runCheck();
    await reportPreviewTab(later.uri);
    await vscode.commands.executeCommand('markdown.showPreview', result.uri);
    await reportPreviewTab(result.uri);
    assert.notEqual(later.markdown, result.markdown);
    await vscode.env.clipboard.writeText('');
    await vscode.commands.executeCommand(ConnectionCommands.copyReport);
    assert.equal(await vscode.env.clipboard.readText(), result.markdown);
  });

  test('the canary key is in no report, notification or log line; the log holds a line for every call of the check', async () => {
    const checkLines = (text: string) => text.split('\n').filter((l) => /\bcheck: (GET|POST|PUT|DELETE) \/.+ (\d{3}|-) \d+ ms$/.test(l.trimEnd())).length;
    const before = checkLines(logText(api.testing.logUri));
    const result = await runCheck();
    assert.ok(result.summary.calls > 5, `only ${result.summary.calls} calls`);
    // The log channel writes its file a moment later: wait for this run's lines, and fail without them.
    const deadline = Date.now() + 10_000;
    let log = logText(api.testing.logUri);
    while (checkLines(log) < before + result.summary.calls && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      log = logText(api.testing.logUri);
    }
    assert.ok(fs.existsSync(api.testing.logUri.fsPath), `no log folder at ${api.testing.logUri.fsPath}`);
    assert.ok(checkLines(log) >= before + result.summary.calls, `${checkLines(log) - before} log lines for the ${result.summary.calls} calls of the check`);
    assert.match(log, /check: GET \/general\/Company 200 \d+ ms/);
    for (const text of [result.markdown, ...prompts.messages.map((m) => m.text), log]) {
      assert.ok(!text.includes(CANARY), 'the key leaked');
      assert.ok(!text.includes(CANARY.slice(0, 16)) && !text.includes(CANARY.slice(-16)), 'part of the key leaked');
    }
  });
});
