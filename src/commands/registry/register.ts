// The registry feature (loaded on first use, src/features/index.ts): the palette commands of the taxpayer
// registry, the registry detail document, the offline registry list, templates, series, mailing and the tax office.
import * as vscode from 'vscode';
import { PaletteCommands } from '../../constants';
import { registerCommand } from '../../shell/commandRunner';
import type { ShellServices } from '../../shell/services';
import { trustedArgs } from '../../shell/testSeams';
import { bulkCheck, type BulkCheckArgs } from './bulkCheck';
import { browseRegistry } from './browse';
import type { PaletteContext } from './paletteContext';
import { addAsCustomer, copyAlias, copyTaxNumber } from './customerActions';
import { RegistryDetailProvider } from './detailDocument';
import { checkName, checkTaxNumber, searchRegistry, showDetail, type CheckArgs } from './lookups';
import { closeOpenReader, downloadRegistryList, searchOffline, type DownloadArgs, type OfflineSearchArgs } from './offlineRegistry';
import { registerSettingsCommands } from '../settingsCommands';
import { trackRegistryDownloads } from '../../walkthrough/registryProgress';

/** Object arguments only: a command run from a menu may receive a tree item or a Uri instead. */
function argsOf<T extends object>(value: unknown): T {
  return (typeof value === 'object' && value !== null && !('scheme' in value) ? value : {}) as T;
}

/** Explorer menu: the file's Uri; editor menu: the document's Uri, meaning its selection. */
function bulkCheckArgs(arg: unknown): BulkCheckArgs {
  if (!(arg instanceof vscode.Uri)) return argsOf<BulkCheckArgs>(arg);
  const editor = vscode.window.activeTextEditor;
  if (editor && editor.document.uri.toString() === arg.toString() && !editor.selection.isEmpty) return { text: editor.document.getText(editor.selection) };
  return { file: arg };
}

export function activateFeature(context: vscode.ExtensionContext, shell: ShellServices): void {
  const ctx: PaletteContext = { shell, extension: context, details: new RegistryDetailProvider() };
  context.subscriptions.push(
    ctx.details.register(),
    registerCommand(PaletteCommands.registryCheckTaxNumber, (arg) => checkTaxNumber(ctx, typeof arg === 'string' ? { taxNumber: arg } : argsOf<CheckArgs>(arg))),
    registerCommand(PaletteCommands.registryCheckName, (arg) => checkName(ctx, argsOf(arg))),
    registerCommand(PaletteCommands.registrySearch, (arg) => searchRegistry(ctx, argsOf(arg))),
    registerCommand(PaletteCommands.registryShowDetail, (arg) => showDetail(ctx, typeof arg === 'string' ? { taxNumber: arg } : argsOf(arg))),
    registerCommand(PaletteCommands.registryBulkCheck, (arg) => bulkCheck(ctx, bulkCheckArgs(arg))),
    registerCommand(PaletteCommands.registryBrowse, () => browseRegistry(ctx)),
    // Writes files: the list kinds and folder only from our own code or the tests (src/shell/testSeams.ts).
    registerCommand(PaletteCommands.registryDownload, (arg) => downloadRegistryList(ctx, trustedArgs<DownloadArgs>(arg))),
    registerCommand(PaletteCommands.registrySearchOffline, (arg) => searchOffline(ctx, argsOf<OfflineSearchArgs>(arg))),
    registerCommand(PaletteCommands.registryAddAsCustomer, (arg) => addAsCustomer(ctx, arg)),
    registerCommand(PaletteCommands.registryCopyTaxNumber, (arg) => copyTaxNumber(ctx, arg)),
    registerCommand(PaletteCommands.registryCopyAlias, (arg) => copyAlias(ctx, arg)),
    ...registerSettingsCommands(ctx),
    { dispose: closeOpenReader },
  );
  trackRegistryDownloads(context);
}
