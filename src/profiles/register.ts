// The profiles feature (loaded on first use, src/features/index.ts): the profile commands. The model
// (the active profile and its records) is the shell's; the reactions to a switch (context keys, status
// bar, trees) are wired at activation and in the views feature.
import type * as vscode from 'vscode';
import { ProfileCommands } from '../constants';
import { registerCommand } from '../shell/commandRunner';
import type { ShellServices } from '../shell/services';
import { addCompanyAsProfile, addProfile, removeProfile, renameProfile, switchProfile } from './profileCommands';

export function activateFeature(context: vscode.ExtensionContext, shell: ShellServices): void {
  context.subscriptions.push(
    registerCommand(ProfileCommands.add, () => addProfile(shell)),
    registerCommand(ProfileCommands.switch, (arg) => switchProfile(shell, arg)),
    registerCommand(ProfileCommands.rename, (arg) => renameProfile(shell, arg)),
    registerCommand(ProfileCommands.remove, (arg) => removeProfile(shell, arg)),
    registerCommand(ProfileCommands.addCompany, (arg) => addCompanyAsProfile(shell, arg)),
  );
}
