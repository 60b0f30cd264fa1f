// The test window's GİB rules for one suite: whatever another suite installed is moved aside and put
// back afterwards, and the download addresses point at the suite's own mirror.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Settings } from '../../src/constants';
import type { NilveraExtensionApi } from '../../src/extension';
import { GIB_PARSED_XPATH_FILE } from '../../src/gib/ruleStoreLayout';

export interface SuiteGibStore {
  /** The extension's global storage folder (the store's root). */
  readonly storage: string;
  /** `<storage>/gib-rules/package.json`, the installed package. */
  readonly packageFile: string;
  /** Points "Download GİB Validation Rules" at `mirror` + the two paths (user settings). */
  setUrls(mirror: string, rules: string, schemas: string): Promise<void>;
  /** Removes what the suite installed, puts back what was there, and clears the addresses. */
  restore(): Promise<void>;
  /**
   * What the rules folder holds besides the package moved aside and the worker's cache of parsed
   * XPath (written after a check, and its temporary file): a download's leftovers would show here.
   */
  files(): string[];
}

export function takeGibStore(api: NilveraExtensionApi): SuiteGibStore {
  const storage = (api.testing.services as unknown as { context: vscode.ExtensionContext }).context.globalStorageUri.fsPath;
  const packageFile = path.join(storage, 'gib-rules', 'package.json');
  let aside: string | undefined;
  if (fs.existsSync(packageFile)) {
    aside = `${packageFile}.aside-${Date.now()}`;
    fs.renameSync(packageFile, aside);
  }
  const config = () => vscode.workspace.getConfiguration(Settings.section);
  return {
    storage,
    packageFile,
    async setUrls(mirror, rules, schemas) {
      await config().update(Settings.gibRulesUrl, `${mirror}${rules}`, vscode.ConfigurationTarget.Global);
      await config().update(Settings.gibSchemasUrl, `${mirror}${schemas}`, vscode.ConfigurationTarget.Global);
    },
    files() {
      return fs.readdirSync(path.dirname(packageFile)).filter((n) => !n.includes('.aside-') && !n.includes(GIB_PARSED_XPATH_FILE));
    },
    async restore() {
      await config().update(Settings.gibRulesUrl, undefined, vscode.ConfigurationTarget.Global);
      await config().update(Settings.gibSchemasUrl, undefined, vscode.ConfigurationTarget.Global);
      fs.rmSync(packageFile, { force: true });
      if (aside) fs.renameSync(aside, packageFile);
    },
  };
}
