// Readable stand-ins for values the schema allows to be null (behaviour point nullableFields): a
// tree row, hover or details table never shows a blank where a name, value, tax number, text or total is missing.
import * as vscode from 'vscode';
import { displayTextOr } from '../domain/displayText';
import { formatCount } from '../shell/displayFormat';

export const Missing = {
  name: (): string => vscode.l10n.t('(no name)'),
  value: (): string => vscode.l10n.t('(no value)'),
  taxNumber: (): string => vscode.l10n.t('(no tax number)'),
  message: (): string => vscode.l10n.t('(no message)'),
  content: (): string => vscode.l10n.t('(no content)'),
  date: (): string => vscode.l10n.t('(no date)'),
  amount: (): string => vscode.l10n.t('unknown'),
} as const;

/** The text (without bidi or control characters), or the placeholder when nothing readable is left. */
export function textOr(value: string | null | undefined, placeholder: () => string): string {
  return displayTextOr(value, '') || placeholder();
}

/** A number in the display language, or "unknown" when the server sent none. */
export function amountOr(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? formatCount(value) : Missing.amount();
}
