// The views feature (loaded on first use): the sidebar trees and every command on them (Retry, Load
// more, data changed, the customer and record commands). The views only show rows; the commands live here.
// Nothing here touches the network.
import * as vscode from 'vscode';
import { ACCOUNT_GROUP_COMMAND_PREFIX, TreeCommands } from '../constants';
import { registerCustomerCommands } from './customers/customerCommands';
import { recordDocuments } from './recordDocument';
import { registerRecordCommands } from './recordCommands';
import { registerCommand, registerRawCommand } from '../shell/commandRunner';
import { contributedCommands } from '../shell/contributedCommands';
import { affectsTrees } from '../shell/settings';
import { knownListAvailability } from '../shell/missingOperation';
import type { FeatureParts, TreeViews } from '../shell/featureParts';
import type { ShellServices } from '../shell/services';
import { LoadMoreNode, PagedNode } from '../views/pagedNode';
import { ErrorNode } from '../views/treeNode';
import { NilveraTrees } from '../views/trees';
import type { AccountGroupKey } from '../views/records/accountNodes';

export function activateFeature(context: vscode.ExtensionContext, shell: ShellServices, views: TreeViews): FeatureParts {
  const client = () => shell.client();
  // A view asks for its rows only when it is shown: that is using Nilvera in this workspace.
  const trees = new NilveraTrees(
    views,
    client,
    () => (shell.usage.markUsed('view'), shell.hasApiKey()),
    async (operation) => knownListAvailability(shell.globalState, await shell.baseUrl(shell.activeProfile().environment), operation),
  );
  context.subscriptions.push(
    trees,
    recordDocuments.register(),
    registerRawCommand(TreeCommands.retry, (node: unknown) => retry(node, trees)),
    registerRawCommand(TreeCommands.loadMore, (node: unknown) =>
      node instanceof LoadMoreNode ? node.owner.loadMore(node.shown) : undefined,
    ),
    shell.onDidChangeData((area) => trees.dataChanged(area)),
    registerRawCommand(TreeCommands.testHook, () => trees),
    // A new key (here or in another window) or another environment: everything shown is stale.
    shell.keys.onDidChange(() => trees.refreshAll()),
    shell.onDidChangeProfile(() => trees.refreshAll()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsTrees(e)) trees.refreshAll();
    }),
    ...registerCustomerCommands({ client, trees, environment: () => shell.environment() }),
    ...registerRecordCommands({ client, trees, environment: () => shell.environment() }),
    ...contributedCommands(context.extension, ACCOUNT_GROUP_COMMAND_PREFIX).map((id) =>
      registerCommand(id, () => showAccountGroup(trees, id.slice(ACCOUNT_GROUP_COMMAND_PREFIX.length) as AccountGroupKey)),
    ),
    // Mailing checkboxes: each change runs the toggle command (which confirms turning a live one off).
    trees.accountView.onDidChangeCheckboxState((e) => {
      for (const [node, state] of e.items) {
        void vscode.commands.executeCommand(TreeCommands.accountToggleMailing, node, state === vscode.TreeItemCheckboxState.Checked);
      }
    }),
  );
  return { trees: trees.providers };
}

function retry(node: unknown, trees: NilveraTrees): unknown {
  if (!(node instanceof ErrorNode)) return trees.refreshAll();
  const owner = node.owner;
  // A failed later page keeps the rows already shown and asks for that page again.
  if (owner instanceof PagedNode && owner.loadedCount > 0) return owner.loadMore();
  owner.refresh();
  return undefined;
}

/** The Account view, with group `key` expanded and selected (a `nilvera.account.show.<key>` command). */
async function showAccountGroup(trees: NilveraTrees, key: AccountGroupKey): Promise<void> {
  await trees.account.getChildren();
  const group = trees.account.root.group(key);
  // package.json names a group the view does not have (test/suite/views.test.ts runs every such command).
  if (!group) throw new Error(`The Account view has no group "${key}"`);
  await trees.accountView.reveal(group, { select: true, focus: true, expand: true });
}
