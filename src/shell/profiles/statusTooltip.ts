// The environment status bar item's tooltip: the active profile, and a link to switch profiles
// (the item's click still switches the environment).
import * as vscode from 'vscode';
import { ProfileCommands } from '../../constants';

export function profileTooltip(environmentLabel: string, profileName: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = { enabledCommands: [ProfileCommands.switch] };
  md.appendText(vscode.l10n.t('Nilvera environment: {0}. Click to switch.', environmentLabel));
  md.appendMarkdown('\n\n');
  md.appendText(vscode.l10n.t('Profile: {0}', profileName));
  md.appendMarkdown(` — [$(account) ${vscode.l10n.t('Switch Profile…')}](command:${ProfileCommands.switch})`);
  return md;
}
