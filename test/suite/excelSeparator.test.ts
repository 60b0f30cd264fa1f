// The separator of exports, as Excel on the user's desktop needs it, in a real extension host: set by
// `nilvera.csv.separator` (semicolon, comma, tab: the file uses it and the message names the setting as
// the reason), or with `auto` by VS Code's display language (`;` where 1.5 is written "1,5", as in
// Turkish; `,` in English). `npm test` runs this suite twice: in English, and with VS Code in Turkish
// (scripts/run-suite.js --locale tr), where the export must use `;` and say so in Turkish. The run's
// language comes from NILVERA_SUITE_LOCALE, so a Turkish run that fell back to English fails here.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Settings, TreeCommands } from '../../src/constants';
import { parseCsv } from '../../src/domain/csv';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { startSandboxSuite } from '../support/sandboxSuite';
import { clearCustomersFilter, extensionTrees } from './treeWalk';

const ROOT = path.resolve(__dirname, '../../..');
/** The list separator Excel expects per display language, from the regional settings Windows pairs with it. */
const EXCEL_SEPARATOR: Record<string, string> = { en: ',', tr: ';' };

/** The run's display language: what run-suite.js was asked for (English unless told). */
const expectedLanguage = process.env.NILVERA_SUITE_LOCALE || 'en';

/** A message as the extension shows it in the run's display language, its {n} filled in. */
function localized(english: string, ...args: string[]): string {
  const bundle = path.join(ROOT, 'l10n', `bundle.l10n.${vscode.env.language}.json`);
  const text = vscode.env.language !== 'en' && fs.existsSync(bundle) ? (JSON.parse(fs.readFileSync(bundle, 'utf8')) as Record<string, string>)[english] : english;
  assert.ok(text, `no ${vscode.env.language} text for "${english}"`);
  return text.replace(/\{(\d+)\}/g, (_m, i: string) => args[Number(i)]);
}

suite('Excel separator of exports (setting and display language)', function () {
  this.timeout(120_000);
  let tmp: string;
  const prompts = new ScriptedPrompts();
  let close: () => Promise<void> = async () => undefined;
  const config = () => vscode.workspace.getConfiguration(Settings.section);

  suiteSetup(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-separator-'));
    ({ close } = await startSandboxSuite({ customers: 30, seed: 38 }, prompts));
    const trees = await extensionTrees();
    clearCustomersFilter(trees);
  });

  suiteTeardown(async () => {
    await config().update(Settings.csvSeparator, undefined, vscode.ConfigurationTarget.Global);
    await close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** Exports the customers to `name` and returns the file's text and the export's message. */
  async function exportTo(name: string): Promise<{ text: string; message: string }> {
    const target = path.join(tmp, name);
    prompts.saveFile = vscode.Uri.file(target);
    prompts.messages.length = 0;
    await vscode.commands.executeCommand(TreeCommands.customersExport);
    assert.ok(fs.existsSync(target), `no export; messages: ${JSON.stringify(prompts.messages)}`);
    const info = prompts.messages.filter((m) => m.level === 'info');
    assert.equal(info.length, 1, JSON.stringify(prompts.messages));
    return { text: fs.readFileSync(target, 'utf8'), message: info[0].text };
  }

  /** Every record of the export has the columns of its header when read with `separator`. */
  function assertSeparatedBy(text: string, separator: string): void {
    assert.ok(text.startsWith(`\uFEFFTaxNumber${separator}Name${separator}`), JSON.stringify(text.slice(0, 40)));
    const { records } = parseCsv(text.replace(/^\uFEFF/, ''), { delimiter: separator as ';' | ',' | '\t' });
    assert.equal(records.length, 31, 'the header and 30 customers');
    assert.ok(records[0].cells.length > 3);
    assert.ok(records.every((r) => r.cells.length === records[0].cells.length), 'every record has the header\'s columns');
  }

  test('the run is in the display language it was started in', () => {
    assert.equal(vscode.env.language, expectedLanguage, 'VS Code did not start in the requested display language');
  });

  test('nilvera.csv.separator semicolon, comma, tab: the export uses it, and the message names the setting as the reason', async () => {
    for (const [setting, separator, shown] of [['semicolon', ';', '";"'], ['comma', ',', '","'], ['tab', '\t', localized('tabs')]] as const) {
      await config().update(Settings.csvSeparator, setting, vscode.ConfigurationTarget.Global);
      const { text, message } = await exportTo(`by-setting-${setting}.csv`);
      assertSeparatedBy(text, separator);
      assert.ok(message.endsWith(localized('Columns are separated by {0} (setting "nilvera.csv.separator").', shown)), `${setting}: ${message}`);
    }
  });

  test('auto: the separator Excel expects with the display language (";" in Turkish, "," in English), and the message says so', async () => {
    await config().update(Settings.csvSeparator, 'auto', vscode.ConfigurationTarget.Global);
    const separator = EXCEL_SEPARATOR[vscode.env.language];
    assert.ok(separator, `no expectation for the display language ${vscode.env.language}`);
    const { text, message } = await exportTo('by-language.csv');
    assertSeparatedBy(text, separator);
    const note = localized('Columns are separated by {0}, as Excel expects with the display language {1}; the "nilvera.csv.separator" setting changes this.', `"${separator}"`, vscode.env.language);
    assert.ok(message.endsWith(note), message);
  });
});
