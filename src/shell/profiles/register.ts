// Wires the profile commands and the reactions to a profile switch. Called once from activate().
import type * as vscode from 'vscode';
import { ProfileCommands } from '../../constants';
import { registerCommand } from '../commandRunner';
import type { ShellServices } from '../services';
import { addCompanyAsProfile, addProfile, removeProfile, renameProfile, switchProfile } from './profileCommands';

export function registerProfiles(shell: ShellServices, refreshState: () => void): vscode.Disposable[] {
  return [
    registerCommand(ProfileCommands.add, () => addProfile(shell)),
    registerCommand(ProfileCommands.switch, (arg) => switchProfile(shell, arg)),
    registerCommand(ProfileCommands.rename, (arg) => renameProfile(shell, arg)),
    registerCommand(ProfileCommands.remove, (arg) => removeProfile(shell, arg)),
    registerCommand(ProfileCommands.addCompany, (arg) => addCompanyAsProfile(shell, arg)),
    // Context keys and status bar follow the switch (the trees hook the same event in views/register.ts).
    shell.onDidChangeProfile(() => refreshState()),
    shell.profiles.onDidChangeRecords(() => refreshState()),
  ];
}
