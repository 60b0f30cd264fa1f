// Where GİB's two archives are downloaded from: the user's settings (GİB's addresses by default, or a
// mirror). The settings are application-scoped, so VS Code reads them from user settings only: a
// folder's .vscode/settings.json cannot point the download elsewhere.
import * as vscode from 'vscode';
import { Settings } from '../../constants';
import { GIB_DEFAULT_URLS, type GibUrls } from '../../gib/gibAddresses';
import { UserFacingError } from '../../shell/errorMessages';

const settingName = (which: keyof GibUrls) => (which === 'rules' ? Settings.gibRulesUrl : Settings.gibSchemasUrl);

/** The setting's full name for `which` archive (messages name it). */
export function gibUrlSetting(which: keyof GibUrls): string {
  return `${Settings.section}.${settingName(which)}`;
}

function readUrl(which: keyof GibUrls): string {
  const value = (vscode.workspace.getConfiguration(Settings.section).get<string>(settingName(which)) ?? '').trim();
  if (!value) return GIB_DEFAULT_URLS[which];
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new UserFacingError(vscode.l10n.t('The setting {0} is not an http(s) address: "{1}". Correct it or clear it to use GİB\'s own address.', gibUrlSetting(which), value));
  }
  return url.href;
}

/** Both addresses, checked; a setting that is not an http(s) address is refused with a message naming it. */
export function gibRuleUrls(): GibUrls {
  return { rules: readUrl('rules'), schemas: readUrl('schemas') };
}
