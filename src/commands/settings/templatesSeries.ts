// "Update e-Invoice Template" (PUT /ebill/Templates) and "Update e-Voucher Series" (PUT /evoucher/Series):
// ask for the ID (remembered ones first), then one change: activate, deactivate, make default,
// rename or replace the file (templates only).
import * as vscode from 'vscode';
import type { UpdateSeriesCommand, UpdateTemplateCommand } from '../../api/types';
import { prompts, UserCancelledError } from '../../shell/prompts';
import { required } from '../commandContext';
import type { PaletteContext } from '../registry/commandContext';
import { askId } from './idPicker';
import { RememberedIds, type RememberedId } from './rememberedIds';
import { readTemplateFile } from './templateFile';

export const TEMPLATE_IDS_KEY = 'nilvera.templates.used';
export const SERIES_IDS_KEY = 'nilvera.series.used';

export type FlagChange = 'activate' | 'deactivate' | 'makeDefault';
export type TemplateChange = FlagChange | 'rename' | 'replaceFile';

/** What a template or series is after a change that does not set its flags (rename, new file). */
export type FlagState = 'active' | 'default' | 'inactive';

export interface TemplateArgs {
  id?: number;
  change?: TemplateChange;
  /** The flags to keep on a rename or file replacement (otherwise remembered, or asked). */
  keep?: FlagState;
  name?: string;
  /** Replacement file path (tests; otherwise an open dialog asks). */
  file?: string;
}

export interface SeriesArgs {
  id?: number;
  change?: FlagChange;
}

function flagItems(): Array<vscode.QuickPickItem & { change: FlagChange }> {
  return [
    { label: `$(check) ${vscode.l10n.t('Activate')}`, change: 'activate' },
    { label: `$(circle-slash) ${vscode.l10n.t('Deactivate')}`, change: 'deactivate' },
    { label: `$(star-full) ${vscode.l10n.t('Make Default')}`, description: vscode.l10n.t('also activates it'), change: 'makeDefault' },
  ];
}

interface Flags {
  IsActive: boolean;
  IsDefault: boolean;
}

/**
 * Both flags, always (spec-silent, behaviour point templatePutOmitted: a flag left out may be kept,
 * or read as false). `known` is what this extension last set; a default is always active, and an
 * inactive one is never the default, so only "activate" needs it.
 */
function flagsFor(change: FlagChange, known: RememberedId | undefined): Flags {
  switch (change) {
    case 'activate':
      return { IsActive: true, IsDefault: known?.IsDefault === true };
    case 'deactivate':
      return { IsActive: false, IsDefault: false };
    case 'makeDefault':
      return { IsActive: true, IsDefault: true };
  }
}

function flagsOf(state: FlagState): Flags {
  return { IsActive: state !== 'inactive', IsDefault: state === 'default' };
}

/**
 * The flags to send with a rename or a new file: the ones this extension last set, else the user
 * says (the API has no way to read them, and leaving them out may reset them).
 */
async function flagsToKeep(label: string, known: RememberedId | undefined, keep: FlagState | undefined): Promise<Flags> {
  if (keep) return flagsOf(keep);
  if (known?.IsActive !== undefined) return { IsActive: known.IsActive, IsDefault: known.IsDefault === true };
  const items: Array<vscode.QuickPickItem & { state: FlagState }> = [
    { label: `$(check) ${vscode.l10n.t('Active')}`, state: 'active' },
    { label: `$(star-full) ${vscode.l10n.t('Active and the default')}`, state: 'default' },
    { label: `$(circle-slash) ${vscode.l10n.t('Inactive')}`, state: 'inactive' },
  ];
  const picked = await prompts.quickPick(items, {
    title: vscode.l10n.t('{0}: keep it as', label),
    placeHolder: vscode.l10n.t('The service cannot tell its current state, and a change that leaves it out may reset it.'),
    ignoreFocusOut: true,
  });
  return flagsOf(required(picked).state);
}

function doneText(change: TemplateChange, label: string): string {
  switch (change) {
    case 'activate':
      return vscode.l10n.t('{0} is now active.', label);
    case 'deactivate':
      return vscode.l10n.t('{0} is now inactive.', label);
    case 'makeDefault':
      return vscode.l10n.t('{0} is now the default.', label);
    case 'rename':
      return vscode.l10n.t('Renamed to {0}.', label);
    case 'replaceFile':
      return vscode.l10n.t('The file of {0} was replaced.', label);
  }
}

async function askName(current?: string): Promise<string> {
  const name = await prompts.inputBox({
    title: vscode.l10n.t('New template name'),
    value: current,
    ignoreFocusOut: true,
    validateInput: (text) => (text.trim() ? undefined : vscode.l10n.t('The name cannot be empty.')),
  });
  if (name === undefined) throw new UserCancelledError();
  return name.trim();
}

async function askTemplateFile(): Promise<string> {
  const files = await prompts.openDialog({ canSelectMany: false, filters: { [vscode.l10n.t('XSLT templates')]: ['xslt', 'xsl', 'xml'] }, openLabel: vscode.l10n.t('Upload Template') });
  if (!files?.[0]) throw new UserCancelledError();
  return files[0].fsPath;
}

export async function updateTemplate(ctx: PaletteContext, args: TemplateArgs = {}): Promise<UpdateTemplateCommand> {
  const ids = new RememberedIds(ctx.shell.globalState, TEMPLATE_IDS_KEY);
  const target = args.id !== undefined ? { ID: args.id, Name: ids.all().find((r) => r.ID === args.id)?.Name } : await askId(vscode.l10n.t('Which e-invoice template?'), ids.all());
  const items: Array<vscode.QuickPickItem & { change: TemplateChange }> = [
    ...flagItems(),
    { label: `$(edit) ${vscode.l10n.t('Rename')}`, change: 'rename' },
    { label: `$(file-code) ${vscode.l10n.t('Replace the Template File…')}`, description: vscode.l10n.t('XSLT, up to 5 MB'), change: 'replaceFile' },
  ];
  const title = vscode.l10n.t('Template {0}', target.Name ?? `#${target.ID}`);
  const change = args.change ?? required(await prompts.quickPick(items, { title, ignoreFocusOut: true })).change;
  const known = ids.all().find((r) => r.ID === target.ID);
  const cmd: UpdateTemplateCommand = { ID: target.ID };
  let name = target.Name;
  if (change === 'rename') cmd.Name = name = args.name ?? (await askName(target.Name));
  else if (change === 'replaceFile') cmd.Base64String = (await readTemplateFile(args.file ?? (await askTemplateFile()))).base64;
  const flags = change === 'rename' || change === 'replaceFile' ? await flagsToKeep(vscode.l10n.t('Template {0}', name ?? `#${target.ID}`), known, args.keep) : flagsFor(change, known);
  Object.assign(cmd, flags);
  const client = await ctx.shell.client();
  await client.ebill.updateTemplate(cmd);
  await ids.remember(target.ID, name, flags);
  void prompts.message('info', doneText(change, change === 'rename' ? (name as string) : vscode.l10n.t('Template {0}', name ?? `#${target.ID}`)));
  return cmd;
}

export async function updateSeries(ctx: PaletteContext, args: SeriesArgs = {}): Promise<UpdateSeriesCommand> {
  const ids = new RememberedIds(ctx.shell.globalState, SERIES_IDS_KEY);
  const target = args.id !== undefined ? { ID: args.id, Name: ids.all().find((r) => r.ID === args.id)?.Name } : await askId(vscode.l10n.t('Which e-voucher series?'), ids.all());
  const title = vscode.l10n.t('Series {0}', target.Name ?? `#${target.ID}`);
  const change = args.change ?? required(await prompts.quickPick(flagItems(), { title, ignoreFocusOut: true })).change;
  const flags = flagsFor(change, ids.all().find((r) => r.ID === target.ID));
  const cmd: UpdateSeriesCommand = { ID: target.ID, ...flags };
  const client = await ctx.shell.client();
  await client.evoucher.updateSeries(cmd);
  await ids.remember(target.ID, target.Name, flags);
  void prompts.message('info', doneText(change, vscode.l10n.t('Series {0}', target.Name ?? `#${target.ID}`)));
  return cmd;
}
