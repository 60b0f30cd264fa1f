// What to tell the user when SecretStorage fails: the cause, the fix VS Code documents, and the
// choice to keep the key for this session only.
import * as vscode from 'vscode';
import type { KeyringUnavailableError } from './apiKeyStore';
import { prompts } from './prompts';

export const KEYRING_HELP_URL = 'https://code.visualstudio.com/docs/configure/settings-sync#_troubleshooting-keychain-issues';

/** Returns true when the user chose to keep the key in memory for this session. */
export async function offerSessionOnlyKey(error: KeyringUnavailableError): Promise<boolean> {
  const keep = vscode.l10n.t('Keep for This Session');
  const help = vscode.l10n.t('Open Keyring Help');
  const text = vscode.l10n.t('VS Code could not save the API key in the operating system keyring ({0}).', error.reason);
  const detail = vscode.l10n.t(
    'On Linux VS Code needs a keyring service such as GNOME Keyring or KWallet; install and unlock one, or choose the keyring with the "password-store" option in argv.json, then set the key again. You can also keep the key in memory until this window closes; it is never written to settings or files.',
  );
  for (;;) {
    const choice = await prompts.message('warning', text, { modal: true, detail }, keep, help);
    if (choice === keep) return true;
    if (choice !== help) return false;
    await vscode.env.openExternal(vscode.Uri.parse(KEYRING_HELP_URL));
  }
}
