// GİB's rules as the VS Code side uses them: one worker per window, started on the first document that
// needs a verdict (never at activation), from the package installed in global storage
// (src/gib/ruleStore.ts). The editor's diagnostics, the preview's verdict and the folder report all
// ask this one object; none starts a worker of its own. An install in this window or another (the
// package file changes) restarts the worker at the next request and fires onDidChangeRules, once: the
// install's command and the package file's watcher both compare the file with the one last loaded.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GibValidation } from '../gib/engine';
import type { GibWorkerClient } from '../gib/workerClient';
import { GIB_PACKAGE_FILE, GIB_RULES_FOLDER } from '../gib/ruleStoreLayout';
import { log } from './log';
import { countForTests } from './testSeams';

export type GibVerdict =
  | { readonly kind: 'noRules' }
  | { readonly kind: 'superseded' }
  | { readonly kind: 'checked'; readonly release: string | undefined; readonly hasSchemas: boolean; readonly validation: GibValidation };

export class GibRules implements vscode.Disposable {
  private starting: Promise<GibWorkerClient | undefined> | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  private watcher: fs.FSWatcher | undefined;
  private debounce: NodeJS.Timeout | undefined;
  /** The package file the worker was started on or last reloaded for (packageStamp), so one install reloads once. */
  private loadedStamp: string | undefined;
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

  /**
   * After an install in this window: reloads, unless the package file's watcher already did for the
   * same file (each install writes a new file; the watcher then finds it loaded and does nothing).
   */
  async installed(): Promise<void> {
    if ((await this.packageStamp()) !== this.loadedStamp) await this.reload();
  }

  /** Drops the running worker; the next request starts one on what is installed now. */
  async reload(): Promise<void> {
    this.loadedStamp = await this.packageStamp();
    const previous = this.starting;
    this.starting = undefined;
    await (await previous?.catch(() => undefined))?.dispose();
    this.changed.fire();
  }

  /**
   * Which package file is installed: an install replaces it whole (a new file renamed into place), so
   * its inode, size and time tell one install from the next without reading its 2 MB.
   */
  private async packageStamp(): Promise<string> {
    const file = path.join(this.storageRoot, GIB_RULES_FOLDER, GIB_PACKAGE_FILE);
    const info = await fs.promises.stat(file, { bigint: true }).catch(() => undefined);
    return info ? `${info.ino}:${info.size}:${info.mtimeNs}` : 'none';
  }

  private async start(): Promise<GibWorkerClient | undefined> {
    this.watch();
    // Taken before reading: an install after this point is a newer file, and the watcher reloads on it.
    this.loadedStamp = await this.packageStamp();
    const { installedGibRelease } = await import('../gib/ruleStore');
    if (!(await installedGibRelease(this.storageRoot))) return undefined;
    const { GibWorkerClient } = await import('../gib/workerClient');
    const started = performance.now();
    const client = await GibWorkerClient.start({ storageRoot: this.storageRoot });
    countForTests('gibWorkerStarts');
    log.info(`Started the GİB rules worker (release ${client.info.release ?? 'none'}) in ${(performance.now() - started).toFixed(0)} ms.`);
    return client;
  }

  /** Another window's install replaces the package file whole (a rename): reload on it (this window's own install is loaded already). */
  private watch(): void {
    if (this.watcher) return;
    const dir = path.join(this.storageRoot, GIB_RULES_FOLDER);
    try {
      fs.mkdirSync(dir, { recursive: true });
      this.watcher = fs.watch(dir, (_event, name) => {
        if (name !== GIB_PACKAGE_FILE) return;
        clearTimeout(this.debounce);
        this.debounce = setTimeout(() => void this.installed(), 300);
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
