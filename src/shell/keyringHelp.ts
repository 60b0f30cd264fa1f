// What to tell the user when SecretStorage fails: the cause, what to do about it on their operating
// system, and the choice to keep the key for this session only.
import * as vscode from 'vscode';
import type { KeyringUnavailableError } from './apiKeyStore';
import { prompts } from './prompts';

export const KEYRING_HELP_URL = 'https://code.visualstudio.com/docs/configure/settings-sync#_troubleshooting-keychain-issues';

/**
 * Where VS Code keeps secrets on `platform` and how to let it at them again. VS Code encrypts them with
 * the system's own store: the Windows account (Data Protection; Credential Manager in older versions),
 * the macOS login keychain (its "… Safe Storage" item), or a Secret Service keyring on Linux.
 */
export function keyringAdvice(platform: NodeJS.Platform = process.platform): string {
  switch (platform) {
    case 'win32':
      return vscode.l10n.t(
        'On Windows, VS Code protects its secrets with your Windows account: sign in with your own account rather than a temporary profile. Older VS Code versions keep them in Credential Manager (Control Panel → Credential Manager → Windows Credentials, entries starting with "vscode"): remove broken ones there, then set the key again.',
      );
    case 'darwin':
      return vscode.l10n.t(
        'On macOS, VS Code keeps its secrets in your login keychain. If macOS asked whether VS Code may use it and the answer was Deny, open Keychain Access, select the "Code Safe Storage" item (named after your VS Code), and allow VS Code on its Access Control tab, or answer "Always Allow" the next time macOS asks. A locked keychain is unlocked with your login password.',
      );
    default:
      return vscode.l10n.t(
        'On Linux, VS Code needs a keyring service such as GNOME Keyring (gnome-keyring) or KWallet, running and unlocked. Or start VS Code with --password-store="gnome-libsecret" or --password-store="kwallet5" (or set "password-store" in argv.json), then set the key again.',
      );
  }
}

export function openKeyringHelp(): Thenable<boolean> {
  return vscode.env.openExternal(vscode.Uri.parse(KEYRING_HELP_URL));
}

/** Returns true when the user chose to keep the key in memory for this session. */
export async function offerSessionOnlyKey(error: KeyringUnavailableError): Promise<boolean> {
  const keep = vscode.l10n.t('Keep for This Session');
  const help = vscode.l10n.t('Open Keyring Help');
  const text = vscode.l10n.t('VS Code could not save the API key in the operating system keyring ({0}).', error.reason);
  const detail = `${keyringAdvice()} ${vscode.l10n.t('You can also keep the key in memory until this window closes; it is never written to settings or files.')}`;
  for (;;) {
    const choice = await prompts.message('warning', text, { modal: true, detail }, keep, help);
    if (choice === keep) return true;
    if (choice !== help) return false;
    await openKeyringHelp();
  }
}
