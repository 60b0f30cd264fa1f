// The read-only detail view of a taxpayer: a virtual Markdown document (scheme nilvera-registry)
// with CodeLens actions "Add as Customer", "Copy Tax Number" and "Copy Alias" on each alias line.
import * as vscode from 'vscode';
import { PaletteCommands } from '../../constants';
import { formatDate, formatDateTime } from '../../shell/displayFormat';
import type { RegistryDetail } from './registryDetail';
import { showAs, VirtualDocuments } from '../virtualDocuments';
import { oneLine, sourceCell } from '../../domain/markdown';

export const DETAIL_SCHEME = 'nilvera-registry';

function fieldLabel(name: string): string {
  const labels: Record<string, string> = {
    TaxDepartment: vscode.l10n.t('Tax office'),
    Address: vscode.l10n.t('Address'),
    District: vscode.l10n.t('District'),
    City: vscode.l10n.t('City'),
    Country: vscode.l10n.t('Country'),
    PostalCode: vscode.l10n.t('Postal code'),
    Phone: vscode.l10n.t('Phone'),
    Fax: vscode.l10n.t('Fax'),
    Email: vscode.l10n.t('E-mail'),
    WebSite: vscode.l10n.t('Website'),
    ModuleType: vscode.l10n.t('Module'),
  };
  return labels[name] ?? name;
}

/** The document text; alias lines start with "| `alias`" so the CodeLens provider can find them. */
export function renderDetail(detail: RegistryDetail): string {
  const lines: string[] = [];
  // Title or tax number the server left null (behaviour point nullableFields): a readable stand-in, never a blank.
  const title = detail.title.trim() ? detail.title : vscode.l10n.t('(no name)');
  const taxNumber = detail.taxNumber.trim() ? detail.taxNumber : vscode.l10n.t('(no tax number)');
  lines.push(`# ${oneLine(detail.title.trim() ? detail.title : detail.taxNumber.trim() ? detail.taxNumber : title)}`, '');
  const source =
    detail.source === 'offline'
      ? vscode.l10n.t('Offline registry list downloaded {0}', detail.downloadedAt ? formatDateTime(detail.downloadedAt) : '—')
      : vscode.l10n.t('Taxpayer registry (online)');
  lines.push(`_${source}_`, '');
  lines.push(`| ${vscode.l10n.t('Field')} | ${vscode.l10n.t('Value')} |`, '|---|---|');
  lines.push(`| ${vscode.l10n.t('Tax number')} | ${sourceCell(taxNumber)} |`);
  lines.push(`| ${vscode.l10n.t('Title')} | ${sourceCell(title)} |`);
  if (detail.type) lines.push(`| ${vscode.l10n.t('Type')} | ${sourceCell(detail.type)} |`);
  if (detail.accountType) lines.push(`| ${vscode.l10n.t('Account type')} | ${sourceCell(detail.accountType)} |`);
  lines.push(`| ${vscode.l10n.t('First registration')} | ${formatDate(detail.firstCreation) || '—'} |`);
  for (const [name, value] of Object.entries(detail.fields)) lines.push(`| ${fieldLabel(name)} | ${sourceCell(value)} |`);
  lines.push('', `## ${vscode.l10n.t('Aliases ({0})', detail.aliases.length)}`, '');
  if (detail.aliases.length === 0) lines.push(vscode.l10n.t('No aliases.'));
  else {
    lines.push(`| ${vscode.l10n.t('Alias')} | PK/GB | ${vscode.l10n.t('Document')} | ${vscode.l10n.t('Status')} | ${vscode.l10n.t('Created')} | ${vscode.l10n.t('Deleted')} |`, '|---|---|---|---|---|---|');
    for (const a of detail.aliases) {
      const status = a.deleted ? vscode.l10n.t('deleted') : vscode.l10n.t('active');
      lines.push(`| \`${sourceCell(a.name)}\` | ${a.kind ?? '?'} | ${a.document ? sourceCell(a.document) : '—'} | ${status} | ${formatDate(a.created) || '—'} | ${a.deleted ? formatDate(a.deleted) : ''} |`);
    }
  }
  return lines.join('\n') + '\n';
}

/** Serves the details opened in this session to the editor, with their CodeLens actions. */
export class RegistryDetailProvider implements vscode.CodeLensProvider {
  private readonly documents = new VirtualDocuments<RegistryDetail>(DETAIL_SCHEME, renderDetail, () =>
    vscode.l10n.t('This registry detail is no longer available. Look the taxpayer up again.'),
  );

  detailOf(uri: vscode.Uri): RegistryDetail | undefined {
    return this.documents.get(uri);
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const detail = this.detailOf(document.uri);
    if (!detail) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const lenses = [
      new vscode.CodeLens(top, { title: vscode.l10n.t('Add as Customer'), command: PaletteCommands.registryAddAsCustomer, arguments: [detail] }),
      new vscode.CodeLens(top, { title: vscode.l10n.t('Copy Tax Number'), command: PaletteCommands.registryCopyTaxNumber, arguments: [detail.taxNumber] }),
    ];
    for (let line = 0; line < document.lineCount; line++) {
      const m = /^\| `([^`]+)`/.exec(document.lineAt(line).text);
      if (m) lenses.push(new vscode.CodeLens(new vscode.Range(line, 0, line, 0), { title: vscode.l10n.t('Copy Alias'), command: PaletteCommands.registryCopyAlias, arguments: [m[1]] }));
    }
    return lenses;
  }

  register(): vscode.Disposable {
    return vscode.Disposable.from(this.documents.register(), vscode.languages.registerCodeLensProvider({ scheme: DETAIL_SCHEME }, this));
  }

  /** Opens the detail in a preview tab, which the next detail replaces. */
  async open(detail: RegistryDetail): Promise<vscode.TextDocument> {
    const uri = this.documents.put(`${detail.taxNumber}${detail.source === 'offline' ? '-offline' : ''}.md`, detail);
    return (await showAs(uri, 'markdown', { preview: true })).document;
  }
}
