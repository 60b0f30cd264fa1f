// The CSV dialect of exports (customers, reconciliation): UTF-8 with a BOM (Excel reads UTF-8 only with
// it), CRLF, and the separator Excel expects: chosen by the display language, or by the
// `nilvera.csv.separator` setting. The message after an export says which, and why.
import * as vscode from 'vscode';
import { Settings } from '../constants';
import type { CsvDelimiter } from '../domain/csv';
import { listSeparatorFor } from '../domain/spreadsheetSeparator';
import { displayLocale } from './displayFormat';
import { separatorOfSetting } from './separatorSetting';

function shown(delimiter: CsvDelimiter): string {
  return delimiter === '\t' ? vscode.l10n.t('tabs') : `"${delimiter}"`;
}

/** The delimiter, and one sentence for the export's message: the separator and what chose it. */
export function exportDialect(): { delimiter: CsvDelimiter; note: string } {
  const chosen = separatorOfSetting(vscode.workspace.getConfiguration(Settings.section).get<unknown>(Settings.csvSeparator));
  if (chosen) {
    return { delimiter: chosen, note: vscode.l10n.t('Columns are separated by {0} (setting "nilvera.csv.separator").', shown(chosen)) };
  }
  const language = displayLocale();
  const delimiter = listSeparatorFor(language);
  return {
    delimiter,
    note: vscode.l10n.t('Columns are separated by {0}, as Excel expects with the display language {1}; the "nilvera.csv.separator" setting changes this.', shown(delimiter), language),
  };
}
