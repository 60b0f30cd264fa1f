// "Nilvera: Use GİB Rules from a File…": GİB's two archives the user already has (their ZIPs in any
// order, a folder holding both, or what they were unpacked into). Each choice is looked at first (which
// package it is, from the names it holds); what is missing or wrong is said before anything is
// installed. Then installed whole, as a download would be.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { log } from '../../shell/log';
import { prompts, UserCancelledError } from '../../shell/prompts';
import { installExplained, useInstalled } from './downloadRules';
import { chosenProblem, type ChosenSource } from './problems';

/** Asks for the files (two ZIPs) or a folder; the platforms' dialogs cannot take both kinds at once. */
async function askSources(): Promise<{ paths: string[]; folder: boolean }> {
  const zips = { label: vscode.l10n.t('The two ZIP files'), description: 'e-FaturaPaketi.zip, UBL-TR1.2.1_Paketi.zip', folder: false };
  const folder = { label: vscode.l10n.t('A folder'), description: vscode.l10n.t('holding both ZIP files, or GİB\'s files unpacked'), folder: true };
  const picked = await prompts.quickPick([zips, folder], { title: vscode.l10n.t('Where are GİB\'s rules?'), ignoreFocusOut: true });
  if (!picked) throw new UserCancelledError();
  const chosen = await prompts.openDialog({
    canSelectFiles: !picked.folder,
    canSelectFolders: picked.folder,
    canSelectMany: true,
    openLabel: vscode.l10n.t('Use These Rules'),
    title: picked.folder ? vscode.l10n.t('The folder with GİB\'s rules') : vscode.l10n.t('GİB\'s e-FaturaPaketi.zip and UBL-TR1.2.1_Paketi.zip'),
    ...(picked.folder ? {} : { filters: { [vscode.l10n.t('ZIP archives')]: ['zip'] } }),
  });
  if (!chosen?.length) throw new UserCancelledError();
  return { paths: chosen.map((uri) => uri.fsPath), folder: picked.folder };
}

/**
 * One ZIP of the two was chosen (some dialogs, such as VS Code's own in a browser or over a remote
 * connection, take one file at a time): asks for the other one, named. Undefined when dismissed.
 */
async function askForTheOther(missing: 'rules' | 'schemas'): Promise<string | undefined> {
  const chosen = await prompts.openDialog({
    canSelectFiles: true,
    canSelectFolders: false,
    canSelectMany: false,
    openLabel: vscode.l10n.t('Use These Rules'),
    title: missing === 'rules' ? vscode.l10n.t('Now GİB\'s e-FaturaPaketi.zip (the rules)') : vscode.l10n.t('Now GİB\'s UBL-TR1.2.1_Paketi.zip (the XSDs)'),
    filters: { [vscode.l10n.t('ZIP archives')]: ['zip'] },
  });
  return chosen?.[0]?.fsPath;
}

/** Each chosen path, looked at; a folder that holds neither package itself stands for the ZIPs directly in it. */
async function lookAt(paths: readonly string[]): Promise<ChosenSource[]> {
  const { inspectGibSource } = await import('../../gib/packageKind');
  const out: ChosenSource[] = [];
  for (const p of paths) {
    const contents = await inspectGibSource(p, { verify: true });
    const isFolder = fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
    if (isFolder && !contents.rules && !contents.schemas) {
      const zips = fs.readdirSync(p, { withFileTypes: true }).filter((e) => e.isFile() && /\.zip$/i.test(e.name)).map((e) => path.join(p, e.name));
      for (const zip of zips) out.push({ path: zip, contents: await inspectGibSource(zip, { verify: true }) });
      if (zips.length) continue;
    }
    out.push({ path: p, contents });
  }
  return out;
}

export async function useRulesFromFile(context: vscode.ExtensionContext): Promise<string> {
  const storageRoot = context.globalStorageUri.fsPath;
  const asked = await askSources();
  const { installedGibRelease, installGibPackage } = await import('../../gib/ruleStore');
  const installed = await installedGibRelease(storageRoot);
  const chosen = await lookAt(asked.paths);
  const isRules = (c: ChosenSource) => c.contents.rules && c.contents.history;
  const isSchemas = (c: ChosenSource) => c.contents.schemas;
  // Exactly one of the two packages, and nothing else, among the files: the other one is asked for.
  if (!asked.folder && chosen.every((c) => isRules(c) || isSchemas(c)) && chosen.some(isRules) !== chosen.some(isSchemas)) {
    const other = await askForTheOther(chosen.some(isRules) ? 'schemas' : 'rules');
    if (other) chosen.push(...(await lookAt([other])));
  }
  const rules = chosen.find(isRules);
  const schemas = chosen.find(isSchemas);
  if (!rules || !schemas) throw chosenProblem(chosen, installed);
  const release = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Installing GİB\'s validation rules…') }, () =>
    installExplained(installed, path.basename(rules.path), () => installGibPackage(storageRoot, rules.path, schemas.path)),
  );
  log.info(`GİB rules ${release} installed from ${rules.path} and ${schemas.path}.`);
  return useInstalled(context, release);
}
