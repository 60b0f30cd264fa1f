// Small formatting helpers shared by the tree items and the commands.
import * as vscode from 'vscode';
import { displayText } from '../domain/displayText';
import { escapeMarkdown, markdownCell } from '../domain/markdown';

/** A tooltip table of label/value rows; empty values are left out. */
export function detailsTooltip(title: string, rows: ReadonlyArray<[string, string | number | boolean | null | undefined]>): vscode.MarkdownString {
  const name = displayText(title);
  const md = new vscode.MarkdownString(`**${escapeMarkdown(name || vscode.l10n.t('(no name)'))}**\n\n`);
  const shown = rows.filter(([, v]) => v !== null && v !== undefined && v !== '');
  if (shown.length > 0) {
    md.appendMarkdown('| | |\n|---|---|\n');
    for (const [label, value] of shown) md.appendMarkdown(`| ${markdownCell(label)} | ${markdownCell(displayText(String(value)))} |\n`);
  }
  return md;
}
