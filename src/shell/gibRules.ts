// GİB's rules as the VS Code side uses them: one worker per window, started on the first document that
// needs a verdict (never at activation), from the package installed in global storage
// (src/gib/ruleStore.ts). The editor's diagnostics, the preview's verdict and the folder report all
// ask this one object; none starts a worker of its own. An install in this window or another (the
// package file changes) restarts the worker at the next request and fires onDidChangeRules.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GibValidation } from '../gib/engine';
import type { GibWorkerClient } from '../gib/workerClient';
import { GIB_PACKAGE_FILE, GIB_RULES_FOLDER } from '../gib/ruleStoreLayout';
import { log } from './log';

export type GibVerdict =
  | { readonly kind: 'noRules' }
  | { readonly kind: 'superseded' }
  | { readonly kind: 'checked'; readonly release: string | undefined; readonly hasSchemas: boolean; readonly validation: GibValidation };

export class GibRules implements vscode.Disposable {
  private starting: Promise<GibWorkerClient | undefined> | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  private watcher: fs.FSWatcher | undefined;
  private debounce: NodeJS.Timeout | undefined;
  /** Fires after the installed rules changed (this window or another); the next request uses them. */
  readonly onDidChangeRules = this.changed.event;

  constructor(readonly storageRoot: string) {}

  /** The worker client of the installed rules, started once; undefined when no rules are installed. */
  client(): Promise<GibWorkerClient | undefined> {
    if (!this.starting) {
      const started = this.start();
      started.catch(() => this.starting === started && (this.starting = undefined));
      this.starting = started;
    }
    return this.starting;
  }

  /** GİB's verdict on one document's text; `key` (its URI) lets a newer text of the same document supersede a waiting one. */
  async verdict(key: string, text: string): Promise<GibVerdict> {
    const client = await this.client();
    if (!client || (!client.info.hasRules && !client.info.hasSchemas)) return { kind: 'noRules' };
    const validation = await client.validate(key, text);
    if (!validation) return { kind: 'superseded' };
    return { kind: 'checked', release: client.info.release, hasSchemas: client.info.hasSchemas, validation };
  }

  /** The installed release, or undefined (starts the worker: call it where a verdict is wanted anyway). */
  async release(): Promise<string | undefined> {
    return (await this.client())?.info.release;
  }

  /** Drops the running worker; the next request starts one on what is installed now. */
  async reload(): Promise<void> {
    const previous = this.starting;
    this.starting = undefined;
    await (await previous?.catch(() => undefined))?.dispose();
    this.changed.fire();
  }

  private async start(): Promise<GibWorkerClient | undefined> {
    this.watch();
    const { installedGibRelease } = await import('../gib/ruleStore');
    if (!(await installedGibRelease(this.storageRoot))) return undefined;
    const { GibWorkerClient } = await import('../gib/workerClient');
    const started = performance.now();
    const client = await GibWorkerClient.start({ storageRoot: this.storageRoot });
    log.info(`Started the GİB rules worker (release ${client.info.release ?? 'none'}) in ${(performance.now() - started).toFixed(0)} ms.`);
    return client;
  }

  /** Another window's install replaces the package file whole (a rename): reload on it. */
  private watch(): void {
    if (this.watcher) return;
    const dir = path.join(this.storageRoot, GIB_RULES_FOLDER);
    try {
      fs.mkdirSync(dir, { recursive: true });
      this.watcher = fs.watch(dir, (_event, name) => {
        if (name !== GIB_PACKAGE_FILE) return;
        clearTimeout(this.debounce);
        this.debounce = setTimeout(() => void this.reload(), 300);
      });
      this.watcher.on('error', () => undefined);
    } catch (e) {
      log.warn(`Cannot watch ${dir} for rules installed by another window: ${(e as Error).message}`);
    }
  }

  dispose(): void {
    clearTimeout(this.debounce);
    this.watcher?.close();
    void this.starting?.then((c) => c?.dispose(), () => undefined);
    this.changed.dispose();
  }
}

let shared: GibRules | undefined;

/** The window's one GibRules (created on first use and disposed with the extension). */
export function gibRules(context: vscode.ExtensionContext): GibRules {
  if (!shared) {
    shared = new GibRules(context.globalStorageUri.fsPath);
    const created = shared;
    context.subscriptions.push(created, { dispose: () => shared === created && (shared = undefined) });
  }
  return shared;
}
