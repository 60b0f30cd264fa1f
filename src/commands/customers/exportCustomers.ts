// Export of the current filter's customers to CSV: every page, written to the file as it arrives.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { hasPageAfter, readPaging } from '../../api/specSilent';
import type { CustomerResponse } from '../../api/types';
import { CUSTOMER_FIELDS, exportCustomersCsv, type CustomerRecord } from '../../domain/customerImport';
import { prompts } from '../../shell/prompts';
import { required, type CommandContext } from '../commandContext';
import { exportedCustomersMessage } from '../../shell/counted';

const EXPORT_PAGE_SIZE = 100;

/** The API's nulls become empty cells. */
function exportRecord(c: CustomerResponse): Partial<CustomerRecord> {
  const out: Partial<CustomerRecord> = { IsExport: c.IsExport };
  for (const f of CUSTOMER_FIELDS) if (f !== 'IsExport') out[f] = c[f] ?? '';
  return out;
}

export interface ExportSummary {
  written: number;
  path: string;
}

export async function exportCustomers(ctx: CommandContext): Promise<ExportSummary | undefined> {
  const root = ctx.trees.customers.root;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = required(
    await prompts.saveDialog({
      title: vscode.l10n.t('Export Customers'),
      filters: { CSV: ['csv'] },
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, 'customers.csv') } : {}),
    }),
  );
  const client = await ctx.client();
  const summary = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Exporting customers'), cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      const out = fs.createWriteStream(target.fsPath, { encoding: 'utf8' });
      const write = (text: string) => new Promise<void>((resolve, reject) => (out.write(text, (e) => (e ? reject(e) : resolve()))));
      let written = 0;
      try {
        let page = 1;
        let more = true;
        let headerDone = false;
        const seen = new Set<number>();
        do {
          const result = await client.customers.list(root.query(page, EXPORT_PAGE_SIZE), { signal: controller.signal });
          const content = Array.isArray(result?.Content) ? result.Content : [];
          // The server's own paging decides (it may cap PageSize, omit totals, repeat its last page).
          const read = readPaging(result, page, EXPORT_PAGE_SIZE);
          more = hasPageAfter(read, page, content.length);
          const rows = content.filter((c) => !seen.has(c.ID));
          for (const c of rows) seen.add(c.ID);
          if (rows.length === 0) more = false;
          const totalPages = read.totalPages ?? page + (more ? 1 : 0);
          // Excel opens UTF-8 only with a BOM; the header comes once.
          for (const [i, line] of [...exportCustomersCsv(rows.map(exportRecord), { bom: true })].entries()) {
            if (i === 0 && headerDone) continue;
            await write(line);
          }
          headerDone = true;
          written += rows.length;
          progress.report({ message: vscode.l10n.t('{0} of {1} customers', written, read.totalCount ?? written), increment: 100 / Math.max(1, totalPages) });
          page = Math.max(read.page, page) + 1;
        } while (more);
      } finally {
        await new Promise<void>((resolve) => out.end(resolve));
      }
      return { written, path: target.fsPath };
    },
  );
  void prompts.message('info', exportedCustomersMessage(summary.written, summary.path));
  return summary;
}
