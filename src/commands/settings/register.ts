// Registers the template, series, mailing and tax-office palette commands.
import type * as vscode from 'vscode';
import { PaletteCommands } from '../../constants';
import { registerCommand } from '../../shell/commandRunner';
import type { PaletteContext } from '../registry/commandContext';
import { switchMailing, updateTaxOffice, type MailingArgs, type TaxOfficeArgs } from './mailingTaxOffice';
import { updateSeries, updateTemplate, type SeriesArgs, type TemplateArgs } from './templatesSeries';

function argsOf<T extends object>(value: unknown): T {
  return (typeof value === 'object' && value !== null ? value : {}) as T;
}

export function registerSettingsCommands(ctx: PaletteContext): vscode.Disposable[] {
  return [
    registerCommand(PaletteCommands.settingsTemplate, (arg) => updateTemplate(ctx, argsOf<TemplateArgs>(arg))),
    registerCommand(PaletteCommands.settingsSeries, (arg) => updateSeries(ctx, argsOf<SeriesArgs>(arg))),
    registerCommand(PaletteCommands.settingsMailing, (arg) => switchMailing(ctx, argsOf<MailingArgs>(arg))),
    registerCommand(PaletteCommands.settingsTaxOffice, (arg) => updateTaxOffice(ctx, argsOf<TaxOfficeArgs>(arg))),
  ];
}
