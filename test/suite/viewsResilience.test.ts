// The sidebar views against servers unlike the default sandbox (behaviour points operations, nullableFields and emptyList),
// in a real extension host: a deployment that does not offer some operations (404 on their list GET)
// says so in that view's row and keeps the other views working; records with null names, values, tax
// numbers, content and totals show readable placeholders, never a blank row.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ConnectionCommands } from '../../src/constants';
import type { NilveraExtensionApi } from '../../src/extension';
import type { NilveraTrees } from '../../src/views/trees';
import { describeError } from '../../src/shell/errorMessages';
import { activateExtension } from '../support/extension';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { setSandboxBehaviour, startTestSandbox, type SandboxHandle } from '../support/sandbox';
import { leaveCustomEnvironment, useSandboxEnvironment } from '../support/sandboxSuite';
import { allRows, clearCustomersFilter, extensionTrees, labelOf, walkViews } from './treeWalk';


suite('Views when the server does not offer an operation, and null fields', function () {
  this.timeout(60_000);
  let sandbox: SandboxHandle;
  let api: NilveraExtensionApi;
  let trees: NilveraTrees;
  const prompts = new ScriptedPrompts();
  let restorePrompts: () => void = () => undefined;

  suiteSetup(async () => {
    sandbox = await startTestSandbox({ customers: 40, seed: 31 });
    api = await activateExtension();
    restorePrompts = api.testing.replacePrompts(prompts);
    trees = await extensionTrees();
    clearCustomersFilter(trees);
    await useSandboxEnvironment(api, sandbox);
  });

  suiteTeardown(async () => {
    restorePrompts();
    await leaveCustomEnvironment(api);
    await sandbox.close();
  });

  setup(() => {
    prompts.messages.length = 0;
  });

  test('an older deployment (operations=olderExport): "This server does not offer company documents", the tax office group says so too, the rest loads', async () => {
    await setSandboxBehaviour(sandbox, { profile: 'default', quirks: { operations: 'olderExport' } });
    try {
      // A bare 404 on a list is also how an empty list may answer (emptyList): the view says both
      // until Check Connection has told which.
      trees.refreshAll();
      assert.deepEqual((await walkViews(trees)).documents.map(labelOf), ['No company documents, or this server does not offer company documents (HTTP 404)']);
      await vscode.commands.executeCommand(ConnectionCommands.check);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      prompts.messages.length = 0;
      trees.refreshAll();
      const rows = await walkViews(trees);
      const documents = rows.documents;
      assert.deepEqual(documents.map(labelOf), ['This server does not offer company documents']);
      assert.ok(documents[0].id.endsWith('/~notOffered'), 'a "not offered" row, not an error row with Retry');
      const taxOffice = rows.account.filter((n) => n.id.startsWith('account/taxOffice/'));
      assert.deepEqual(taxOffice.map(labelOf), ['This server does not offer the interactive tax office settings']);
      // The other views and groups load as usual: no error row anywhere.
      assert.deepEqual(allRows(rows).filter((n) => n.id.endsWith('/~error')).map(labelOf), []);
      assert.ok(rows.customers.filter((n) => /\/customer-\d+$/.test(n.id)).length > 0, 'customers still load');
      assert.ok(rows.certificates.length > 0 && rows.identifications.length > 0);
      assert.ok(rows.account.some((n) => n.id === 'account/company/summary'), 'the company still loads');
      assert.deepEqual(prompts.messages.filter((m) => m.level === 'error'), []);
    } finally {
      await setSandboxBehaviour(sandbox, { profile: 'default' });
    }
  });

  test('a 404 on a list names the operation, not a vanished record; a single-record 404 keeps "no longer exists"', async () => {
    await setSandboxBehaviour(sandbox, { profile: 'default', quirks: { operations: 'olderExport' } });
    try {
      const client = (await api.testing.services.client()) as unknown as {
        documents: { list(): Promise<unknown>; delete(id: number): Promise<unknown> };
        taxOffice: { get(): Promise<unknown> };
        customers: { get(id: number): Promise<unknown> };
      };
      const failure = (p: Promise<unknown>) => p.then(() => assert.fail('expected a 404'), (e: unknown) => describeError(e).text);
      // A fixed path that names no record: the server does not have the operation.
      assert.match(await failure(client.taxOffice.get()), /^This server does not offer this operation \(HTTP 404\)/);
      // A list that may answer 404 when it is empty (emptyList): both readings.
      assert.match(await failure(client.documents.list()), /^Not found \(HTTP 404\): the list is empty, or this server does not offer this operation\./);
      // A record's path, answered 404 with an empty body (as this deployment answers the missing route): both
      // readings. (Not GET /Customers/{ID}: the client finds a customer through the list when that is missing.)
      assert.match(await failure(client.documents.delete(1)), /^Not found \(HTTP 404\): the record no longer exists, or this server does not offer this operation/);
      await setSandboxBehaviour(sandbox, { profile: 'default' });
      // A record's path, answered 404 with the platform's error messages: the record is gone.
      assert.match(await failure(client.customers.get(999_999)), /^The record no longer exists; refresh the view\./);
    } finally {
      await setSandboxBehaviour(sandbox, { profile: 'default' });
    }
  });

  test('null names, values, tax numbers, content and totals (nullableFields=nulls): every row has a readable label', async () => {
    await setSandboxBehaviour(sandbox, { profile: 'default', quirks: { nullableFields: 'nulls' } });
    try {
      trees.refreshAll();
      const rows = allRows(await walkViews(trees));
      assert.ok(rows.length > 20, `only ${rows.length} rows`);
      for (const node of rows) {
        const item = node.treeItem();
        const label = labelOf(node);
        assert.ok(label.trim().length > 0, `blank label: ${node.id}`);
        const text = `${label} ${typeof item.description === 'string' ? item.description : ''}`;
        assert.doesNotMatch(text, /\bnull\b|\bundefined\b|NaN|\[object Object\]/, `${node.id}: ${text}`);
        const tooltip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : (item.tooltip ?? '');
        assert.doesNotMatch(tooltip, /\*\*\*\*|\bnull\b|\bundefined\b/, `${node.id} tooltip: ${tooltip}`);
      }
      const labels = rows.map(labelOf);
      assert.ok(labels.includes('(no name)'), 'a customer or record without a name shows "(no name)"');
      assert.deepEqual(rows.filter((n) => n.id.endsWith('/~error')).map(labelOf), []);
      assert.deepEqual(prompts.messages.filter((m) => m.level === 'error'), []);
    } finally {
      await setSandboxBehaviour(sandbox, { profile: 'default' });
    }
  });
});
