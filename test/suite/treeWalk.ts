// Test helper: expands every node of the five sidebar trees (as a person clicking every arrow),
// including "Load more" on the customers list, and returns the rows per view.
import * as vscode from 'vscode';
import { TreeCommands } from '../../src/constants';
import type { NilveraTrees } from '../../src/views/trees';
import type { TreeNode } from '../../src/views/treeNode';

export interface ViewRows {
  customers: TreeNode[];
  documents: TreeNode[];
  certificates: TreeNode[];
  identifications: TreeNode[];
  account: TreeNode[];
}

export function labelOf(node: TreeNode): string {
  const l = node.treeItem().label;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

interface Provider {
  getChildren(node?: TreeNode): Promise<TreeNode[]> | TreeNode[];
}

/** Depth-first rows of a tree, expanding every collapsible node (nodes are the extension bundle's, so no instanceof). */
async function expandAll(provider: Provider, node: TreeNode | undefined, depth: number): Promise<TreeNode[]> {
  const children = await provider.getChildren(node);
  const out: TreeNode[] = [];
  for (const child of children) {
    out.push(child);
    if (depth < 4 && child.treeItem().collapsibleState !== vscode.TreeItemCollapsibleState.None) out.push(...(await expandAll(provider, child, depth + 1)));
  }
  return out;
}

/** Every row of every view; the customers list is grown with "Load more" up to `morePages` times. */
export async function walkViews(trees: NilveraTrees, morePages = 2): Promise<ViewRows> {
  let customers = await expandAll(trees.customers, undefined, 0);
  for (let i = 0; i < morePages; i++) {
    const more = customers.find((n) => n.id.endsWith('/~more'));
    if (!more) break;
    await vscode.commands.executeCommand(TreeCommands.loadMore, more);
    customers = await expandAll(trees.customers, undefined, 0);
  }
  return {
    customers,
    documents: await expandAll(trees.documents, undefined, 0),
    certificates: await expandAll(trees.certificates, undefined, 0),
    identifications: await expandAll(trees.identifications, undefined, 0),
    account: await expandAll(trees.account, undefined, 0),
  };
}

export function allRows(rows: ViewRows): TreeNode[] {
  return [...rows.customers, ...rows.documents, ...rows.certificates, ...rows.identifications, ...rows.account];
}
