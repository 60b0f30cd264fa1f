// The credits tooltip's Markdown: one row per package. Plain (no `vscode`): the localizer and the
// display-language formatters are passed in, so a unit test renders it as VS Code would. Every value
// from the server is escaped; an end date that is not a real ISO date is not echoed.
import { displayText } from '../domain/displayText';
import { isIsoDay } from '../domain/isoDate';
import { markdownCell } from '../domain/markdown';
import type { CreditResponse } from '../api/types';

type CreditPackageRow = Partial<Pick<CreditResponse, 'Name' | 'UsedCredit' | 'TotalCredit' | 'RemainingCredit' | 'EndDate'>>;

export interface CreditsTableFormat {
  l10n: { t(message: string, ...args: Array<string | number>): string };
  count(n: number): string;
  day(isoDate: string): string;
}

/** A package's end date as the display language writes it, or "(not a date)". */
function endDateCell(value: unknown, f: CreditsTableFormat): string {
  if (value === undefined || value === null || value === '') return '-';
  return markdownCell(typeof value === 'string' && isIsoDay(value) ? f.day(value) : f.l10n.t('(not a date)'));
}

/** The table's Markdown (header and rows), or the "no packages" line. */
export function creditsTableMarkdown(packages: readonly CreditPackageRow[], f: CreditsTableFormat): string {
  const { l10n } = f;
  if (packages.length === 0) return markdownCell(l10n.t('No credit packages.'));
  const num = (n: unknown): string => (typeof n === 'number' && Number.isFinite(n) ? markdownCell(f.count(n)) : '-');
  const lines = [`| ${l10n.t('Package')} | ${l10n.t('Used')} | ${l10n.t('Remaining')} | ${l10n.t('Ends')} |`, '|---|---:|---:|---|'];
  for (const p of packages) {
    const name = typeof p.Name === 'string' && displayText(p.Name) ? displayText(p.Name) : '-';
    lines.push(`| ${markdownCell(name)} | ${num(p.UsedCredit)} / ${num(p.TotalCredit)} | ${num(p.RemainingCredit)} | ${endDateCell(p.EndDate, f)} |`);
  }
  return lines.join('\n') + '\n';
}
