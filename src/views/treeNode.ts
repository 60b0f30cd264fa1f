// The node model every Nilvera tree uses (after vscode-azuretools / vscode-pull-request-github):
// a parent caches its children and has at most one load in flight; a failed load becomes one error
// item with Retry instead of an empty view; ids are stable and unique per parent.
import * as vscode from 'vscode';
import { cleanTreeItem } from '../shell/displayItems';
import { describeError } from '../shell/errorMessages';
import { isEmptyOrNotOffered, isOperationNotOffered, type ListAvailability } from '../shell/missingOperation';
import { log } from '../shell/log';
import { ConnectionCommands, TreeCommands } from '../constants';

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

  /** A TreeItem with this node's id and the given parts set. */
  protected item(label: string | vscode.TreeItemLabel, parts: ItemParts = {}): vscode.TreeItem {
    const { collapsible = vscode.TreeItemCollapsibleState.None, icon, ...rest } = parts;
    // Labels, descriptions and tooltips hold server text: no bidi or control characters (displayItems.ts).
    return cleanTreeItem(Object.assign(new vscode.TreeItem(label, collapsible), { id: this.id, iconPath: icon, ...rest }));
  }
}

/** What a row shows besides its label. */
export type ItemParts = Pick<vscode.TreeItem, 'description' | 'tooltip' | 'contextValue' | 'command' | 'checkboxState' | 'accessibilityInformation'>
  & { icon?: vscode.ThemeIcon; collapsible?: vscode.TreeItemCollapsibleState };

/** A leaf that only shows a text (an empty list, a value). */
export class InfoNode extends TreeNode {
  constructor(
    parent: ParentNode | undefined,
    key: string,
    readonly label: string,
    private readonly parts: ItemParts = {},
  ) {
    super(parent, key);
  }

  treeItem(): vscode.TreeItem {
    return this.item(this.label, { contextValue: 'info', ...this.parts });
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
    return this.item(vscode.l10n.t('Could not load: {0}', this.message), {
      icon: new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground')),
      tooltip: vscode.l10n.t('{0}\nClick to try again.', this.message),
      contextValue: 'error',
      command: { command: TreeCommands.retry, title: vscode.l10n.t('Retry'), arguments: [this] },
    });
  }
}

/** Thrown by a list's load when Check Connection found that this server lacks the operation. */
export class ListNotOfferedError extends Error {
  constructor() {
    super('Check Connection found that this server does not offer this list.');
    this.name = 'ListNotOfferedError';
  }
}

/** Notifies the provider that a node's children changed (the provider redraws a root as the whole view). */
export type ChangeListener = (node: ParentNode) => void;

/**
 * A list that may answer a bare 404 when it is empty (src/shell/missingOperation.ts): the row that
 * says both are possible, and what Check Connection found for this server, if it ran.
 */
export interface EmptyOr404 {
  text: () => string;
  known: () => Promise<ListAvailability | undefined>;
}

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

  /** A root is never drawn (its view shows its children); a group inside a view overrides this. */
  treeItem(): vscode.TreeItem {
    return this.item(this.id, { collapsible: vscode.TreeItemCollapsibleState.Collapsed });
  }

  /** Fetches the children from the server. Errors are caught by children(). */
  protected abstract load(): Promise<TreeNode[]>;

  /** The row's text when the server does not offer this node's list (its GET answered 404). */
  protected notOffered?: () => string;
  /** Set for a list whose bare 404 may also mean that it is empty. */
  protected emptyOr404?: EmptyOr404;

  /**
   * What replaces the children when loading them failed. A 404 on a fixed-path list GET is no error
   * with Retry (it would answer the same): the operation is missing, or for a list that may answer 404
   * when empty, a click runs Check Connection, which tells which.
   */
  private failureNode(error: unknown): TreeNode {
    if (error instanceof ListNotOfferedError || isOperationNotOffered(error)) {
      const text = this.notOffered?.() ?? vscode.l10n.t('This server does not offer this list.');
      return new InfoNode(this, '~notOffered', text, {
        icon: new vscode.ThemeIcon('circle-slash'),
        tooltip: vscode.l10n.t('The server answered HTTP 404 (not found) to this list: this deployment of the API does not have the operation. The other views are not affected.'),
        contextValue: 'notOffered',
      });
    }
    if (!isEmptyOrNotOffered(error)) return new ErrorNode(this, error);
    const text = this.emptyOr404?.text() ?? vscode.l10n.t('Nothing to list, or this server does not offer this list (HTTP 404)');
    return new InfoNode(this, '~notOffered', text, {
      icon: new vscode.ThemeIcon('question'),
      tooltip: vscode.l10n.t('The server answered HTTP 404 (not found) with no message. An account with nothing in this list and a deployment of the API without the operation answer alike. Click to run "Nilvera: Check Connection", which tells which. The other views are not affected.'),
      command: { command: ConnectionCommands.check, title: vscode.l10n.t('Check Connection') },
      contextValue: 'notOffered',
    });
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
   * Loads until one load completes with no invalidate() during it: refreshes during a load cost one
   * follow-up load (the answer under way may predate the change), not a request each.
   */
  private async loadCurrent(): Promise<TreeNode[]> {
    for (;;) {
      const generation = this.generation;
      let nodes: TreeNode[];
      try {
        nodes = uniqueById(await this.load());
      } catch (error) {
        log.warn(`${this.id}: ${error instanceof Error ? error.message : String(error)}`);
        nodes = [this.failureNode(error)];
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
    this.notify(this);
  }
}

/**
 * Drops nodes whose id is already taken: VS Code refuses a tree with two equal ids ("Element with id
 * … is already registered"). A record can come twice when the server's data shifts between pages.
 */
function uniqueById(nodes: readonly TreeNode[]): TreeNode[] {
  const seen = new Set<string>();
  return nodes.filter((node) => !seen.has(node.id) && seen.add(node.id));
}
