// The template, series, mailing and tax-office palette commands. "Update e-Invoice Template" (PUT
// /ebill/Templates) and "Update e-Voucher Series" (PUT /evoucher/Series) ask for the ID (the remembered
// ones first), then one change: activate, deactivate, make default, rename or replace the file (templates
// only). The API has no operation that lists them, so the IDs used before, with their names, are kept in
// globalState (IDs and names only).
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PaletteCommands } from '../constants';
import type { UpdateSeriesCommand, UpdateTemplateCommand } from '../api/types';
import { isApiError } from '../shell/apiContract';
import { registerCommand } from '../shell/commandRunner';
import { UserFacingError } from '../shell/errorMessages';
import { formatBytes } from '../shell/displayFormat';
import { channelState, switchMailingChannel, type MailingChannel } from '../shell/mailingSwitch';
import { prompts, UserCancelledError } from '../shell/prompts';
import { trustedArgs } from '../shell/testSeams';
import { required } from './treeCommandContext';
import type { PaletteContext } from './registry/paletteContext';

// Each changes the account: it acts only on our own arguments (the studio's upload) or the tests'
// scripted ones; another extension's arguments are dropped and the command asks (src/shell/testSeams.ts).
export function registerSettingsCommands(ctx: PaletteContext): vscode.Disposable[] {
  return [
    registerCommand(PaletteCommands.settingsTemplate, (arg) => updateTemplate(ctx, trustedArgs<TemplateArgs>(arg))),
    registerCommand(PaletteCommands.settingsSeries, (arg) => updateSeries(ctx, trustedArgs<SeriesArgs>(arg))),
    registerCommand(PaletteCommands.settingsMailing, (arg) => switchMailing(ctx, trustedArgs<MailingArgs>(arg))),
    registerCommand(PaletteCommands.settingsTaxOffice, (arg) => updateTaxOffice(ctx, trustedArgs<TaxOfficeArgs>(arg))),
  ];
}

export const TEMPLATE_IDS_KEY = 'nilvera.templates.used';
const SERIES_IDS_KEY = 'nilvera.series.used';

type FlagChange = 'activate' | 'deactivate' | 'makeDefault';
type TemplateChange = FlagChange | 'rename' | 'replaceFile';

/** What a template or series is after a change that does not set its flags (rename, new file). */
type FlagState = 'active' | 'default' | 'inactive';

interface TemplateArgs {
  id?: number;
  change?: TemplateChange;
  /** The flags to keep on a rename or file replacement (otherwise remembered, or asked). */
  keep?: FlagState;
  name?: string;
  /** Replacement file path (tests; otherwise an open dialog asks). */
  file?: string;
}

interface SeriesArgs {
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

type Flags = Record<'IsActive' | 'IsDefault', boolean>;

/**
 * Both flags, always (spec-silent, behaviour point templatePutOmitted: a flag left out may be kept,
 * or read as false). `known` is what this extension last set; a default is always active, and an
 * inactive one is never the default, so only "activate" needs it.
 */
function flagsFor(change: FlagChange, known: RememberedId | undefined): Flags {
  if (change === 'activate') return { IsActive: true, IsDefault: known?.IsDefault === true };
  return flagsOf(change === 'makeDefault' ? 'default' : 'inactive');
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
  const texts: Record<TemplateChange, string> = {
    activate: vscode.l10n.t('{0} is now active.', label),
    deactivate: vscode.l10n.t('{0} is now inactive.', label),
    makeDefault: vscode.l10n.t('{0} is now the default.', label),
    rename: vscode.l10n.t('Renamed to {0}.', label),
    replaceFile: vscode.l10n.t('The file of {0} was replaced.', label),
  };
  return texts[change];
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

async function updateTemplate(ctx: PaletteContext, args: TemplateArgs = {}): Promise<UpdateTemplateCommand> {
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
  else if (change === 'replaceFile') cmd.Base64String = await readTemplateFile(args.file ?? (await askTemplateFile()));
  const flags = change === 'rename' || change === 'replaceFile' ? await flagsToKeep(vscode.l10n.t('Template {0}', name ?? `#${target.ID}`), known, args.keep) : flagsFor(change, known);
  Object.assign(cmd, flags);
  const client = await ctx.shell.client();
  await client.ebill.updateTemplate(cmd);
  await ids.remember(target.ID, name, flags);
  void prompts.message('info', doneText(change, change === 'rename' ? (name as string) : vscode.l10n.t('Template {0}', name ?? `#${target.ID}`)));
  return cmd;
}

async function updateSeries(ctx: PaletteContext, args: SeriesArgs = {}): Promise<UpdateSeriesCommand> {
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

async function askId(title: string, remembered: RememberedId[]): Promise<{ ID: number; Name?: string }> {
  if (remembered.length > 0) {
    const items: Array<vscode.QuickPickItem & { entry?: RememberedId }> = [...remembered.map((r) => ({ label: r.Name ?? `#${r.ID}`, description: `ID ${r.ID}`, entry: r })), { label: `$(edit) ${vscode.l10n.t('Another ID…')}` }];
    const picked = required(await prompts.quickPick(items, { title, ignoreFocusOut: true }));
    if (picked.entry) return picked.entry;
  }
  const typed = await prompts.inputBox({
    title,
    prompt: vscode.l10n.t('The numeric ID, as shown in the Nilvera portal'),
    ignoreFocusOut: true,
    validateInput: (text) => (/^\s*[1-9]\d{0,9}\s*$/.test(text) && Number(text) <= 2_147_483_647 ? undefined : vscode.l10n.t('Enter a positive whole number.')),
  });
  return { ID: Number(required(typed).trim()) };
}

/** An ID used before, its name, and the flags this extension last set (the API cannot read them back). */
interface RememberedId extends Partial<Flags> {
  ID: number;
  Name?: string;
}

class RememberedIds {
  constructor(
    private readonly state: vscode.Memento,
    private readonly key: string,
  ) {}

  all(): RememberedId[] {
    return this.state.get<RememberedId[]>(this.key) ?? [];
  }

  /** Moves the ID to the front (most recent first) with the flags just set; keeps a known name unless given one. */
  async remember(id: number, name: string | undefined, flags: Flags): Promise<void> {
    const known = name ?? this.all().find((r) => r.ID === id)?.Name;
    const entry: RememberedId = { ID: id, ...(known ? { Name: known } : {}), ...flags };
    // Only one can be the default: the others remembered as default no longer are.
    const others = this.all()
      .filter((r) => r.ID !== id)
      .map((r) => (flags.IsDefault && r.IsDefault ? { ...r, IsDefault: false } : r));
    await this.state.update(this.key, [entry, ...others].slice(0, 20));
  }
}

/** Not stated by the API; e-invoice XSLT templates are typically well under 1 MB. */
const MAX_TEMPLATE_BYTES = 5 * 1024 * 1024;
const EXTENSIONS = new Set(['.xslt', '.xsl', '.xml']);

/** Reads the file and returns it as base64, or throws a message naming what is wrong with it. */
async function readTemplateFile(file: string): Promise<string> {
  const name = path.basename(file);
  if (!EXTENSIONS.has(path.extname(file).toLowerCase())) {
    throw new UserFacingError(vscode.l10n.t('{0} is not a template: choose an .xslt, .xsl or .xml file.', name));
  }
  const stat = await fs.stat(file);
  if (stat.size === 0) throw new UserFacingError(vscode.l10n.t('{0} is empty.', name));
  if (stat.size > MAX_TEMPLATE_BYTES) {
    throw new UserFacingError(vscode.l10n.t('{0} is {1}; a template may be at most {2}.', name, formatBytes(stat.size), formatBytes(MAX_TEMPLATE_BYTES)));
  }
  const bytes = await fs.readFile(file);
  const head = bytes.subarray(0, 4096).toString('utf8').replace(/^\uFEFF/, '').trimStart();
  if (!head.startsWith('<') || !/<(\?xml|xsl:stylesheet|xsl:transform|[\w.-]+)/.test(head)) {
    throw new UserFacingError(vscode.l10n.t('{0} does not contain XML or XSLT.', name));
  }
  return bytes.toString('base64');
}

interface MailingArgs {
  feature?: MailingChannel;
  isActive?: boolean;
}

function featureLabel(feature: MailingChannel): string {
  return feature === 'whatsapp' ? vscode.l10n.t('WhatsApp messages') : vscode.l10n.t('E-mail sending');
}

async function switchMailing(ctx: PaletteContext, args: MailingArgs = {}): Promise<{ feature: MailingChannel; isActive: boolean } | undefined> {
  const client = await ctx.shell.client();
  let feature = args.feature === 'email' || args.feature === 'whatsapp' ? args.feature : undefined;
  let isActive = typeof args.isActive === 'boolean' ? args.isActive : undefined;
  if (!feature || isActive === undefined) {
    const rows = await client.mailing.settings();
    const onOff = (v: boolean | undefined) => (v === undefined ? vscode.l10n.t('unknown') : v ? vscode.l10n.t('on') : vscode.l10n.t('off'));
    const items = (['whatsapp', 'email'] as const).map((f) => {
      const now = channelState(rows, f);
      return {
        label: now ? vscode.l10n.t('Turn off {0}', featureLabel(f)) : vscode.l10n.t('Turn on {0}', featureLabel(f)),
        description: vscode.l10n.t('now {0}', onOff(now)),
        feature: f,
        next: !now,
      };
    });
    const picked = required(await prompts.quickPick(items.filter((i) => !feature || i.feature === feature), { title: vscode.l10n.t('Mailing Settings'), ignoreFocusOut: true }));
    feature = picked.feature;
    isActive = picked.next;
  }
  if (!(await switchMailingChannel(client, ctx.shell.environment(), feature, isActive))) return undefined;
  ctx.shell.dataChanged('mailing');
  void prompts.message('info', isActive ? vscode.l10n.t('{0}: on.', featureLabel(feature)) : vscode.l10n.t('{0}: off.', featureLabel(feature)));
  return { feature, isActive };
}

interface TaxOfficeArgs {
  userName?: string;
  password?: string;
}

/** PUT /InteractiveTaxOffice?UserName=&Password=; a 422 shows the server's reason. */
async function updateTaxOffice(ctx: PaletteContext, args: TaxOfficeArgs = {}): Promise<string> {
  const client = await ctx.shell.client();
  let userName = args.userName;
  if (userName === undefined) {
    const current = await client.taxOffice.get().catch(() => undefined);
    userName = await prompts.inputBox({
      title: vscode.l10n.t('Interactive Tax Office: user name'),
      prompt: vscode.l10n.t('The user name of the GİB Interactive Tax Office (usually the tax number)'),
      value: current?.UserName ?? '',
      ignoreFocusOut: true,
      validateInput: (text) => (text.trim() ? undefined : vscode.l10n.t('The user name cannot be empty.')),
    });
    if (userName === undefined) throw new UserCancelledError();
  }
  const password = required(
    args.password ?? (await prompts.inputBox({ title: vscode.l10n.t('Interactive Tax Office: password'), prompt: vscode.l10n.t('The password is sent to Nilvera only and not kept here.'), password: true, ignoreFocusOut: true })),
  );
  try {
    await client.taxOffice.update(userName.trim(), password);
  } catch (error) {
    if (isApiError(error) && error.kind === 'validation') {
      const reason = error.messages.map((m) => m.description).filter(Boolean).join(' ');
      throw new UserFacingError(vscode.l10n.t('The tax office credentials were not accepted: {0}', reason || vscode.l10n.t('no reason given')));
    }
    throw error;
  }
  ctx.shell.dataChanged('taxOffice');
  void prompts.message('info', vscode.l10n.t('Interactive Tax Office credentials updated for {0}.', userName.trim()));
  return userName.trim();
}
