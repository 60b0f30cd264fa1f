// The GİB feature (loaded on first use, src/features/index.ts): GİB's validation rules on the user's
// computer (download, use from a file, check for newer) and a folder checked against them.
import type * as vscode from 'vscode';
import { GibCommands } from '../../constants';
import { registerCommand } from '../../shell/commandRunner';
import { trustedArgs } from '../../shell/testSeams';
import { checkForNewerRules } from './checkForNewerRules';
import { downloadRules, type GibDownloadArgs } from './downloadRules';
import { useRulesFromFile } from './useRulesFromFile';
import { validateFolderArgs, validateFolderCommand } from './validateFolder';

export function activateFeature(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    registerCommand(GibCommands.downloadRules, (arg) => downloadRules(context, trustedArgs<GibDownloadArgs>(arg))),
    registerCommand(GibCommands.useRulesFromFile, () => useRulesFromFile(context)),
    registerCommand(GibCommands.checkForNewerRules, (arg) => checkForNewerRules(context, trustedArgs<GibDownloadArgs>(arg))),
    registerCommand(GibCommands.validateFolder, (arg) => validateFolderCommand(context, validateFolderArgs(arg))),
  );
}
