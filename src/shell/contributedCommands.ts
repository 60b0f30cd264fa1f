// Commands declared in package.json only, found by their id's prefix (the Account view's group commands,
// `nilvera.account.show.<group>`): activate() registers them with their feature (src/features/index.ts)
// and the feature runs them (src/commands/viewCommands.ts).
import type * as vscode from 'vscode';

export function contributedCommands(extension: vscode.Extension<unknown>, prefix: string): string[] {
  const manifest = extension.packageJSON as { contributes?: { commands?: Array<{ command?: unknown }> } };
  return (manifest.contributes?.commands ?? []).map((c) => c.command).filter((id): id is string => typeof id === 'string' && id.startsWith(prefix));
}
