// The node model every Nilvera tree uses (after vscode-azuretools / vscode-pull-request-github):
// a parent caches its children and has at most one load in flight; a failed load becomes one error
// item with Retry instead of an empty view; ids are stable and unique per parent.
import * as vscode from 'vscode';
import { describeError } from '../shell/errorMessages';
import { isOperationNotOffered } from '../shell/missingOperation';
import { log } from '../shell/log';
import { TreeCommands } from '../constants';

export abstract class TreeNode {
  /** Unique in the view and stable across refreshes: the parent's id plus a key of the record. */
  readonly id: string;

  constructor(
    readonly parent: ParentNode | undefined,
    key: string,
  ) {
    this.id = parent ? `${parent.id}/${key}` : key;
  }

  abstract treeItem(): vscode.TreeItem;

  /** A TreeItem with this node's id already set. */
  protected item(label: string | vscode.TreeItemLabel, collapsible = vscode.TreeItemCollapsibleState.None): vscode.TreeItem {
    const item = new vscode.TreeItem(label, collapsible);
    item.id = this.id;
    return item;
  }
}

/** A leaf that only shows a text (an empty list, a value). */
export class InfoNode extends TreeNode {
  constructor(
    parent: ParentNode | undefined,
    key: string,
    private readonly label: string,
    private readonly description?: string,
    private readonly icon?: vscode.ThemeIcon,
  ) {
    super(parent, key);
  }

  treeItem(): vscode.TreeItem {
    const item = this.item(this.label);
    if (this.description) item.description = this.description;
    if (this.icon) item.iconPath = this.icon;
    item.contextValue = 'info';
    return item;
  }
}

/** Shown instead of a parent's children when loading them failed; clicking it loads them again. */
export class ErrorNode extends TreeNode {
  readonly message: string;

  constructor(
    readonly owner: ParentNode,
    error: unknown,
  ) {
    super(owner, '~error');
    this.message = describeError(error).text;
  }

  treeItem(): vscode.TreeItem {
    const item = this.item(vscode.l10n.t('Could not load: {0}', this.message));
    item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
    item.tooltip = vscode.l10n.t('{0}\nClick to try again.', this.message);
    item.contextValue = 'error';
    item.command = { command: TreeCommands.retry, title: vscode.l10n.t('Retry'), arguments: [this] };
    return item;
  }
}

/**
 * Shown instead of a parent's children when the server answered its fixed-path list GET with 404:
 * this deployment does not have the operation (see shell/missingOperation.ts). Not an error with
 * Retry: asking again gives the same answer; the view's Refresh still asks again.
 */
export class NotOfferedNode extends TreeNode {
  constructor(
    readonly owner: ParentNode,
    readonly text: string,
  ) {
    super(owner, '~notOffered');
  }

  treeItem(): vscode.TreeItem {
    const item = this.item(this.text);
    item.iconPath = new vscode.ThemeIcon('circle-slash');
    item.tooltip = vscode.l10n.t('The server answered HTTP 404 (not found) to this list: this deployment of the API does not have the operation. The other views are not affected.');
    item.contextValue = 'notOffered';
    return item;
  }
}

/** Notifies the provider that a node's children changed (undefined = the view's root). */
export type ChangeListener = (node: ParentNode | undefined) => void;

export abstract class ParentNode extends TreeNode {
  private cached: TreeNode[] | undefined;
  private inFlight: Promise<TreeNode[]> | undefined;
  /** Bumped by invalidate() and setCached(): a load started before it is not cached. */
  private generation = 0;

  constructor(
    parent: ParentNode | undefined,
    key: string,
    protected readonly notify: ChangeListener,
  ) {
    super(parent, key);
  }

  /** Fetches the children from the server. Errors are caught by children(). */
  protected abstract load(): Promise<TreeNode[]>;

  /** The row shown when the server does not offer this node's list (its GET answered 404). */
  protected notOfferedText(): string {
    return vscode.l10n.t('This server does not offer this list.');
  }

  /** Whether this parent is the view's invisible root (its changes refresh the whole view). */
  get isRoot(): boolean {
    return this.parent === undefined;
  }

  /** The children, loaded once; concurrent calls share one request. */
  children(): Promise<TreeNode[]> {
    if (this.cached) return Promise.resolve(this.cached);
    if (this.inFlight) return this.inFlight;
    const loading: Promise<TreeNode[]> = this.loadCurrent().finally(() => {
      if (this.inFlight === loading) this.inFlight = undefined;
    });
    this.inFlight = loading;
    return loading;
  }

  /**
   * Loads until one load completes with no invalidate() during it. A refresh while a load is in
   * flight therefore costs one follow-up load (the answer under way may predate the change), not a
   * request per refresh: without this, every refresh during a slow load started a parallel request.
   */
  private async loadCurrent(): Promise<TreeNode[]> {
    for (;;) {
      const generation = this.generation;
      let nodes: TreeNode[];
      try {
        nodes = uniqueById(await this.load());
      } catch (error) {
        log.warn(`${this.id}: ${error instanceof Error ? error.message : String(error)}`);
        nodes = [isOperationNotOffered(error) ? new NotOfferedNode(this, this.notOfferedText()) : new ErrorNode(this, error)];
      }
      if (generation === this.generation) {
        this.cached = nodes;
        return nodes;
      }
      // Replaced meanwhile by setCached (a page appended): that is the current list.
      if (this.cached) return this.cached;
    }
  }

  /** The cached children, without loading (tests, reveal). */
  peek(): readonly TreeNode[] | undefined {
    return this.cached;
  }

  /** Replaces the cached children (a parent that grows page by page). */
  protected setCached(nodes: TreeNode[]): void {
    this.generation++;
    this.cached = nodes;
  }

  /** Forgets the children; the next children() call loads them again (a load in flight is redone once). */
  invalidate(): void {
    this.generation++;
    this.cached = undefined;
  }

  /** Forgets the children and tells VS Code to ask for them again (only this node is redrawn). */
  refresh(): void {
    this.invalidate();
    this.notify(this.isRoot ? undefined : this);
  }
}

/**
 * Drops nodes whose id is already taken: VS Code refuses a tree with two equal ids ("Element with id
 * … is already registered"). A record can come twice when the server's data shifts between pages.
 */
export function uniqueById<T extends TreeNode>(nodes: readonly T[], seen = new Set<string>()): T[] {
  const out: T[] = [];
  for (const node of nodes) {
    if (seen.has(node.id)) continue;
    seen.add(node.id);
    out.push(node);
  }
  return out;
}
