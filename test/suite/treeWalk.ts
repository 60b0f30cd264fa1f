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

/** The extension's trees, through its test hook (the objects themselves: the same extension host). */
export async function extensionTrees(): Promise<NilveraTrees> {
  const trees = await vscode.commands.executeCommand<NilveraTrees | undefined>(TreeCommands.testHook);
  if (!trees) throw new Error(`${TreeCommands.testHook} answered nothing: is the extension running in Test mode?`);
  return trees;
}

/** The customers view without a search or sort: what one suite leaves behind and the next does not expect. */
export function clearCustomersFilter(trees: NilveraTrees | undefined): void {
  trees?.customers.root.setFilter({ search: '', sortColumn: undefined, sortType: 'ASC' });
}

export function allRows(rows: ViewRows): TreeNode[] {
  return [...rows.customers, ...rows.documents, ...rows.certificates, ...rows.identifications, ...rows.account];
}
