// The reconciliation feature (loaded on first use, src/features/index.ts): the view's rows, "Reconcile
// Customers with Registry", "Export Reconciliation", "Open Customer", "Copy PK Alias". The index and
// the client are opened when a run starts.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FormCommands, ReconciliationCommands, ReconciliationView } from '../constants';
import { exportDialect } from '../shell/exportDialect';
import { askSpreadsheetTarget, fileWriteError, reportSavedFile } from '../shell/fileMessages';
import { offlineRegistry, registryIndexRoot } from '../registry/offlineLookup';
import { registerCommand, registerRawCommand } from '../shell/commandRunner';
import { trackRegistryDownloads } from '../walkthrough/registryProgress';
import { UserFacingError } from '../shell/errorMessages';
import { FileLockedError } from '../files/lockedFiles';
import { log } from '../shell/log';
import { prompts, UserCancelledError } from '../shell/prompts';
import type { FeatureParts, TreeViews } from '../shell/featureParts';
import type { ShellServices } from '../shell/services';
import { writeReconciliationCsv, writeReconciliationXlsx } from './export';
import { spreadsheetFormatOf } from '../files/userFiles';
import { exportLabels } from './labels';
import { formatDateTime } from '../shell/displayFormat';
import { buildReport, type ReconciliationReport } from './report';
import { runReconciliation, type RegistrySource } from './run';
import { SnapshotStore, type Snapshot } from './snapshot';
import { CustomerNode, LoadMoreNode, ReconciliationTree } from './tree';
import { customersCounted, exportedCustomersMessage, lookupRequestsCounted } from '../shell/counted';
import { withCancellableProgress, type ProgressReporter } from '../shell/cancellableProgress';

export interface RunArgs {
  /** auto (default): the offline index when one is downloaded, else the online bulk lookup. */
  source?: 'auto' | 'offline' | 'online';
  /** Tests: cancels like the notification's Cancel button. */
  cancellation?: vscode.CancellationToken;
}

const HAS_RESULT = 'nilvera.reconciliation.hasResult';

/** What the extension-host tests reach through the internal command. */
export type ReconciliationTestHook = ReturnType<Reconciliation['testHook']>;

function customerOf(arg: unknown): CustomerNode['row'] | undefined {
  if (arg instanceof CustomerNode) return arg.row;
  const r = arg as { customerId?: unknown; pkAlias?: unknown } | undefined;
  return r && typeof r.customerId === 'number' ? (r as CustomerNode['row']) : undefined;
}

/** Saves the run's snapshot; a failure is told on its own (the result is shown whatever happens here). */
async function saveSnapshot(store: SnapshotStore, snapshot: Snapshot): Promise<void> {
  try {
    await store.save(snapshot);
  } catch (error) {
    log.error(`reconciliation: the snapshot could not be saved: ${String(error)}`);
    const text =
      error instanceof FileLockedError
        ? vscode.l10n.t('This result could not be kept for the next run\'s comparison: {0} is open in another program. The result shown is complete.', error.path)
        : vscode.l10n.t('This result could not be kept for the next run\'s comparison ({0}). The result shown is complete.', error instanceof Error ? error.message : String(error));
    void prompts.message('warning', text);
  }
}

/** Reports a run's progress at most ten times a second: a run of 1,000 pages would otherwise send 1,000. */
function throttledProgress(progress: ProgressReporter): (done: number, total: number) => void {
  let reported = 0;
  let reportedAt = 0;
  return (done, total) => {
    const now = Date.now();
    if (now - reportedAt < 100 && done < total) return;
    reportedAt = now;
    progress.report({ message: vscode.l10n.t('{0} of {1} customers', done, total), increment: total ? ((done - reported) * 100) / total : 0 });
    reported = done;
  };
}

/** The reconciliation view's rows, its runs and their export. */
class Reconciliation {
  readonly tree = new ReconciliationTree();
  readonly store: SnapshotStore;
  readonly indexRoot: string;

  constructor(
    storage: string,
    private readonly shell: ShellServices,
    readonly view: vscode.TreeView<unknown>,
  ) {
    this.store = new SnapshotStore(path.join(storage, 'reconciliation'));
    this.indexRoot = registryIndexRoot(storage);
    // What crashed saves left (the feature's first use, off activation's path).
    void this.store.sweep().then(
      (removed) => removed.length && log.info(`reconciliation: removed what crashed saves left: ${removed.map((f) => path.basename(f)).join(', ')}`),
      (error: unknown) => log.warn(`reconciliation: sweep failed: ${String(error)}`),
    );
  }

  async run(args: RunArgs = {}): Promise<ReconciliationReport> {
    const baseUrl = await this.shell.baseUrl();
    // Snapshots are kept per profile: two companies at one address each compare with their own run.
    const profileId = this.shell.activeProfile().id;
    const client = await this.shell.client();
    const registry = offlineRegistry(this.indexRoot, 'Invoice');
    const useOffline = args.source === 'offline' || (args.source !== 'online' && registry.hasIndex());
    if (args.source === 'offline' && !registry.hasIndex()) throw new UserFacingError(vscode.l10n.t('No registry list is downloaded. Run "Download Registry List for Offline Search" first.'));
    const lists = registry.lists();
    const source: RegistrySource = useOffline
      ? { kind: 'offline', lookup: (tn) => registry.lookup(tn), ...(lists.length ? { downloadedAt: lists.map((l) => l.downloadedAt).sort()[0] } : {}) }
      : { kind: 'online', registry: client.registry };
    // The run's time is when it started: a run that started later in another window and saved its
    // snapshot first is not replaced by this one (SnapshotStore.save).
    const startedAt = new Date().toISOString();
    const previous = await this.store.load(baseUrl, profileId).catch((error: unknown) => {
      log.warn(`reconciliation: the previous snapshot could not be read (${String(error)}); this run counts as the first`);
      return undefined;
    });
    const result = await withCancellableProgress(
      vscode.l10n.t('Reconciling customers with the registry'),
      (signal, progress) =>
        runReconciliation({ customers: client.customers, source, signal, onProgress: throttledProgress(progress) })
          .catch((e: unknown) => {
            throw signal.aborted ? new UserCancelledError() : e;
          }),
      args.cancellation,
    );
    const { report, snapshot } = buildReport(baseUrl, startedAt, result, previous, profileId);
    await this.show(report, useOffline);
    // The result is on screen already; a snapshot that cannot be saved only costs the next run's comparison.
    await saveSnapshot(this.store, snapshot);
    return report;
  }

  private async show(report: ReconciliationReport, offline: boolean): Promise<void> {
    this.tree.show(report);
    this.view.message = offline
      ? vscode.l10n.t('{0}, checked against the registry list downloaded {1}.', customersCounted(report.totalCustomers), report.indexDate ? formatDateTime(report.indexDate) : '—')
      : vscode.l10n.t('{0}, checked online ({1}).', customersCounted(report.totalCustomers), lookupRequestsCounted(report.lookupRequests));
    await vscode.commands.executeCommand('setContext', HAS_RESULT, true);
    if (report.unchecked.length) {
      const text =
        report.unchecked.length === 1
          ? vscode.l10n.t('{0} tax number could not be looked up; it is listed under "Not checked". Run again to check it.', 1)
          : vscode.l10n.t('{0} tax numbers could not be looked up; they are listed under "Not checked". Run again to check them.', report.unchecked.length);
      void prompts.message('warning', text);
    }
  }

  async export(): Promise<{ path: string; written: number } | undefined> {
    const report = this.tree.report;
    if (!report) {
      await prompts.message('info', vscode.l10n.t('Run "Reconcile Customers with Registry" first.'));
      return undefined;
    }
    const target = await askSpreadsheetTarget('reconciliation', vscode.l10n.t('Export Reconciliation'));
    if (!target) throw new UserCancelledError();
    const xlsx = spreadsheetFormatOf(target) === 'xlsx';
    const dialect = exportDialect();
    // Shown while a file held open is waited for (about 10 s); Cancel then keeps the previous file.
    const { lines, saved } = await withCancellableProgress(vscode.l10n.t('Exporting the reconciliation'), (signal, progress) => {
      const options = { signal, onCommit: () => progress.report({ message: vscode.l10n.t('Saving {0}…', path.basename(target)) }) };
      return xlsx
        ? writeReconciliationXlsx(target, report, exportLabels(), { results: vscode.l10n.t('Reconciliation'), run: vscode.l10n.t('Run'), takenAt: vscode.l10n.t('Checked at') }, options)
        : writeReconciliationCsv(target, report, exportLabels(), { ...options, delimiter: dialect.delimiter });
    }).then(undefined, (error: unknown) => {
      throw fileWriteError(error, target);
    });
    const where = await reportSavedFile(saved, (file) => (xlsx ? exportedCustomersMessage(lines, file) : `${exportedCustomersMessage(lines, file)} ${dialect.note}`));
    return { path: where.path, written: lines };
  }

  /** The view's parts, the index root the runs read, the snapshot file of the active profile at a URL. */
  testHook() {
    const { tree, store, view, indexRoot } = this;
    return { tree, store, view, indexRoot, snapshotFile: (baseUrl: string) => store.fileFor(baseUrl, this.shell.activeProfile().id) };
  }
}

async function openCustomer(arg: unknown): Promise<unknown> {
  const row = customerOf(arg);
  return row ? vscode.commands.executeCommand(FormCommands.customer, { customerId: row.customerId }) : undefined;
}

// "Add alias to customer notes" is not offered: the customer record (CustomerDto / PUT
// /general/Customers in the spec) has no notes, description or alias field to write it to.
async function copyPkAlias(arg: unknown): Promise<string | undefined> {
  const alias = customerOf(arg)?.pkAlias;
  if (!alias) return undefined;
  await vscode.env.clipboard.writeText(alias);
  void prompts.message('info', vscode.l10n.t('Copied {0}.', alias));
  return alias;
}

export function activateFeature(context: vscode.ExtensionContext, shell: ShellServices, views: TreeViews): FeatureParts {
  trackRegistryDownloads(context);
  const reconciliation = new Reconciliation(context.globalStorageUri.fsPath, shell, views(ReconciliationView));
  const { tree } = reconciliation;
  context.subscriptions.push(
    tree,
    registerCommand(ReconciliationCommands.run, (args) => reconciliation.run((args ?? {}) as RunArgs)),
    registerCommand(ReconciliationCommands.export, () => reconciliation.export()),
    registerCommand(ReconciliationCommands.openCustomer, openCustomer),
    registerCommand(ReconciliationCommands.copyPkAlias, copyPkAlias),
    registerRawCommand(ReconciliationCommands.loadMore, (node: unknown) => (node instanceof LoadMoreNode ? tree.loadMore(node) : undefined)),
    registerRawCommand(ReconciliationCommands.testHook, () => reconciliation.testHook()),
  );
  return { trees: { [ReconciliationView]: tree as vscode.TreeDataProvider<unknown> } };
}
