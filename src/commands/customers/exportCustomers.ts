// Export of the current filter's customers to a workbook (.xlsx) or a CSV, as the chosen name says:
// every page, written whole (src/files/userFiles.ts), so Cancel or a failure leaves the previous export
// as it was, and a file held open in Excel is not lost.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { walkPages } from '../../api/paging';
import type { CustomerResponse } from '../../api/types';
import { CUSTOMER_FIELDS, exportCustomersCsv, type CustomerRecord } from '../../domain/customerImport';
import { saveUserFile, spreadsheetFormatOf } from '../../files/userFiles';
import { exportCustomersXlsx } from '../../domain/xlsxCustomers';
import { exportedCustomersMessage } from '../../shell/counted';
import { required, type TreeCommandContext } from '../treeCommandContext';
import { exportDialect } from '../../shell/exportDialect';
import { askSpreadsheetTarget, fileWriteError, reportSavedFile } from '../../shell/fileMessages';
import { withCancellableProgress } from '../../shell/cancellableProgress';

const EXPORT_PAGE_SIZE = 100;

/** The API's nulls become empty cells. */
function exportRecord(c: CustomerResponse): Partial<CustomerRecord> {
  const out: Partial<CustomerRecord> = { IsExport: c.IsExport };
  for (const f of CUSTOMER_FIELDS) if (f !== 'IsExport') out[f] = c[f] ?? '';
  return out;
}

export interface ExportSummary {
  written: number;
  /** Where the file is: the chosen one, or a numbered name beside it when that was held open. */
  path: string;
}

export async function exportCustomers(ctx: TreeCommandContext): Promise<ExportSummary | undefined> {
  const root = ctx.trees.customers.root;
  const target = required(await askSpreadsheetTarget('customers', vscode.l10n.t('Export Customers')));
  const format = spreadsheetFormatOf(target);
  const dialect = exportDialect();
  const client = await ctx.client();
  let written = 0;
  const saved = await withCancellableProgress(vscode.l10n.t('Exporting customers'), async (signal, progress) => {
    /** Every page of the current filter, as the server pages it. */
    async function* pages(): AsyncGenerator<Partial<CustomerRecord>[]> {
      const ask = (page: number) => client.customers.list(root.query(page, EXPORT_PAGE_SIZE), { signal });
      for await (const { page, rows, totalCount, totalPages, more } of walkPages(ask, { keyOf: (c) => c.ID })) {
        yield rows.map(exportRecord);
        written += rows.length;
        const pageCount = totalPages ?? page + (more ? 1 : 0);
        progress.report({ message: vscode.l10n.t('{0} of {1} customers', written, totalCount ?? written), increment: 100 / Math.max(1, pageCount) });
      }
    }
    try {
      return await saveUserFile(
        target,
        async (file) => {
          if (format === 'xlsx') {
            // A workbook is written whole: the pages are gathered first.
            const all: Partial<CustomerRecord>[] = [];
            for await (const rows of pages()) all.push(...rows);
            await file.write(await exportCustomersXlsx(all));
            return;
          }
          let first = true;
          for await (const rows of pages()) {
            const lines = exportCustomersCsv(rows, { bom: true, delimiter: dialect.delimiter });
            // The BOM and the header come once, at the start of the file.
            if (!first) lines.next();
            first = false;
            for (const line of lines) await file.write(line);
          }
        },
        {
          signal,
          onCommit: () => progress.report({ message: vscode.l10n.t('Saving {0}…', path.basename(target)) }),
        },
      );
    } catch (error) {
      throw fileWriteError(error, target);
    }
  });
  const where = await reportSavedFile(saved, (file) => (format === 'xlsx' ? exportedCustomersMessage(written, file) : `${exportedCustomersMessage(written, file)} ${dialect.note}`));
  return { written, path: where.path };
}
