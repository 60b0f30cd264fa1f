// The views feature (loaded on first use, src/features/index.ts): the sidebar trees' providers, their shared
// commands (Retry, Load more, data changed) and the customer and record commands. Nothing here touches
// the network.
import * as vscode from 'vscode';
import { TreeCommands } from '../constants';
import { registerCustomerCommands } from '../commands/customers/register';
import { registerRecordDocuments } from '../commands/recordDocument';
import { registerRecordCommands } from '../commands/records/register';
import { registerCommand, registerRawCommand } from '../shell/commandRunner';
import { affectsTrees } from '../shell/settings';
import { knownListAvailability } from '../shell/listAvailability';
import type { FeatureParts, TreeViews } from '../features';
import type { ShellServices } from '../shell/services';
import { shellClientSource } from './clientSource';
import { LoadMoreNode, PagedNode } from './pagedNode';
import { ErrorNode } from './treeNode';
import { isDataArea, NilveraTrees } from './trees';

export function activateFeature(context: vscode.ExtensionContext, shell: ShellServices, views: TreeViews): FeatureParts {
  const client = shellClientSource(shell);
  // A view asks for its rows only when it is shown: that is using Nilvera in this workspace.
  const trees = new NilveraTrees(
    views,
    client,
    () => (shell.usage.markUsed('view'), shell.hasApiKey()),
    async (operation) => knownListAvailability(shell.globalState, await shell.baseUrl(shell.activeProfile().environment), operation),
  );
  context.subscriptions.push(
    trees,
    registerRecordDocuments(),
    registerRawCommand(TreeCommands.retry, (node: unknown) => retry(node, trees)),
    registerRawCommand(TreeCommands.loadMore, (node: unknown) => (node instanceof LoadMoreNode ? node.click() : undefined)),
    registerCommand(TreeCommands.dataChanged, (arg) => {
      const area = (arg as { area?: unknown } | undefined)?.area;
      if (isDataArea(area)) trees.dataChanged(area);
      else trees.refreshAll();
    }),
    registerRawCommand(TreeCommands.testHook, () => trees),
    // A new key (here or in another window) or another environment: everything shown is stale.
    shell.keys.onDidChange(() => trees.refreshAll()),
    shell.onDidChangeProfile(() => trees.refreshAll()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsTrees(e)) trees.refreshAll();
    }),
    ...registerCustomerCommands({ client, trees }),
    ...registerRecordCommands({ client, trees }),
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
