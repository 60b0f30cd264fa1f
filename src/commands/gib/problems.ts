// Why GİB's rules could not be installed, in the user's language: the download's failures (offline, an
// HTTP error, not a ZIP, the wrong package at an address) and the files a user chose. Each message says
// that the rules in use, if any, stay as they were.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GibDownloadError } from '../../gib/download';
import type { GibUrls } from '../../gib/gibAddresses';
import { HISTORY_ENTRY, RULES_ENTRY, type GibSourceContents } from '../../gib/packageKind';
import { UserFacingError } from '../../shell/errorMessages';
import { gibUrlSetting } from './ruleUrls';

const packageName = (which: keyof GibUrls): string => (which === 'rules' ? 'e-FaturaPaketi' : 'UBL-TR1.2.1_Paketi');

/** What stays in use after a failed install. */
export function keptNote(installed: string | undefined): string {
  return installed
    ? vscode.l10n.t('Nothing was installed; the rules in use ({0}) stay as they were.', installed)
    : vscode.l10n.t('Nothing was installed.');
}

function downloadText(error: GibDownloadError): string {
  const { url, which, problem } = error;
  switch (problem.kind) {
    case 'unreachable':
      return vscode.l10n.t('{0} could not be reached ({1}). Check the connection, or the address in the setting {2}.', url, problem.detail, gibUrlSetting(which));
    case 'status':
      return problem.status === 404
        ? vscode.l10n.t('{0} answered 404 (not found). Check the address in the setting {1}.', url, gibUrlSetting(which))
        : vscode.l10n.t('{0} answered HTTP {1}. Try again later, or check the address in the setting {2}.', url, String(problem.status), gibUrlSetting(which));
    case 'tooLarge':
      return problem.announced
        ? vscode.l10n.t('{0} is larger than {1} (it announced {2}), more than GİB\'s archives ever are; nothing was read. Check the address in the setting {3}.', url, problem.limit, problem.announced, gibUrlSetting(which))
        : vscode.l10n.t('{0} sent more than {1}, more than GİB\'s archives ever are; the download was stopped. Check the address in the setting {2}.', url, problem.limit, gibUrlSetting(which));
    case 'noAnswer':
      return vscode.l10n.t('{0} did not answer within {1} s. Try again later, or check the connection and the address in the setting {2}.', url, String(problem.seconds), gibUrlSetting(which));
    case 'stalled':
      return vscode.l10n.t('{0} sent nothing for {1} s; the download was stopped. Try again later, or check the address in the setting {2}.', url, String(problem.seconds), gibUrlSetting(which));
    case 'notZip':
      return vscode.l10n.t('{0} did not send a complete ZIP archive (it is damaged, cut short or not a ZIP). Try again, or check the address in the setting {1}.', url, gibUrlSetting(which));
    case 'wrongArchive':
      return vscode.l10n.t('{0} is not GİB\'s {1}: it has no {2}. Check the address in the setting {3}.', url, packageName(which), problem.missing, gibUrlSetting(which));
  }
}

/** A failed download as a message for the user (the English details go to the log). */
export function downloadProblem(error: GibDownloadError, installed: string | undefined): UserFacingError {
  return new UserFacingError(`${vscode.l10n.t('GİB\'s rules could not be downloaded:')} ${downloadText(error)} ${keptNote(installed)}`);
}

/** An archive whose directory reads but whose data does not (a damaged entry, a failed CRC check). */
export function damagedProblem(what: string, installed: string | undefined): UserFacingError {
  return new UserFacingError(`${vscode.l10n.t('{0} is damaged and cannot be read (an entry fails its check). Download or copy it again.', what)} ${keptNote(installed)}`);
}

/** GİB's files read but refused by the rule reader (an include or extends that does not resolve). */
export function unusableProblem(what: string, detail: string, installed: string | undefined): UserFacingError {
  return new UserFacingError(`${vscode.l10n.t('{0} cannot be used as GİB\'s rules: {1}.', what, detail)} ${keptNote(installed)}`);
}

export interface ChosenSource {
  readonly path: string;
  readonly contents: GibSourceContents;
}

/**
 * What is wrong with the files a user chose when they do not hold both packages: the one that is not a
 * ZIP, the rule package without History.txt, the file that is neither package, or the package missing.
 */
export function chosenProblem(chosen: readonly ChosenSource[], installed: string | undefined): UserFacingError {
  const name = (c: ChosenSource) => path.basename(c.path);
  const fail = (text: string) => new UserFacingError(`${text} ${keptNote(installed)}`);
  const notZip = chosen.find((c) => c.contents.unreadable === 'notZip');
  if (notZip) return fail(vscode.l10n.t('{0} is not a ZIP archive that can be read: it is damaged, cut short or not a ZIP.', name(notZip)));
  const missing = chosen.find((c) => c.contents.unreadable === 'missing');
  if (missing) return fail(vscode.l10n.t('{0} does not exist.', missing.path));
  const hasRules = chosen.some((c) => c.contents.rules && c.contents.history);
  const hasSchemas = chosen.some((c) => c.contents.schemas);
  const neither = chosen.filter((c) => !c.contents.schemas && !(c.contents.rules && c.contents.history));
  if (!hasRules) {
    const noHistory = chosen.find((c) => c.contents.rules && !c.contents.history);
    if (noHistory) return fail(vscode.l10n.t('{0} is not GİB\'s e-FaturaPaketi: it has no {1}.', name(noHistory), HISTORY_ENTRY));
    if (neither.length) return fail(vscode.l10n.t('{0} is not GİB\'s e-FaturaPaketi: it has no {1}.', name(neither[0]), RULES_ENTRY));
    return fail(vscode.l10n.t('Only GİB\'s UBL-TR1.2.1_Paketi (the XSDs) was chosen: choose e-FaturaPaketi.zip (the rules) with it.'));
  }
  if (!hasSchemas && neither.length) return fail(vscode.l10n.t('{0} is not GİB\'s UBL-TR1.2.1_Paketi: it has no {1}.', name(neither[0]), neither[0].contents.missingSchema ?? ''));
  return fail(vscode.l10n.t('Only GİB\'s e-FaturaPaketi (the rules) was chosen: choose UBL-TR1.2.1_Paketi.zip (the XSDs) with it.'));
}
