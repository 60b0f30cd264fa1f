// The environment status bar item: its click and tooltip. With one profile a click switches the
// environment and the tooltip links to the profiles; with several (the accountant's case) a click
// switches the profile (company) and the tooltip links to the environments.
import * as vscode from 'vscode';
import { Commands, ProfileCommands } from '../constants';

export function statusItemCommand(severalProfiles: boolean): string {
  return severalProfiles ? ProfileCommands.switch : Commands.environmentSwitch;
}

export function profileTooltip(environmentLabel: string, profileName: string, severalProfiles = false): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = { enabledCommands: [ProfileCommands.switch, Commands.environmentSwitch] };
  if (severalProfiles) {
    md.appendText(vscode.l10n.t('Nilvera profile: {0}. Click to switch.', profileName));
    md.appendMarkdown('\n\n');
    md.appendText(vscode.l10n.t('Environment: {0}', environmentLabel));
    md.appendMarkdown(` — [$(server-environment) ${vscode.l10n.t('Switch Environment…')}](command:${Commands.environmentSwitch})`);
    return md;
  }
  md.appendText(vscode.l10n.t('Nilvera environment: {0}. Click to switch.', environmentLabel));
  md.appendMarkdown('\n\n');
  md.appendText(vscode.l10n.t('Profile: {0}', profileName));
  md.appendMarkdown(` — [$(account) ${vscode.l10n.t('Switch Profile…')}](command:${ProfileCommands.switch})`);
  return md;
}
