// Rows of the documents, certificates and identifications views.
import * as vscode from 'vscode';
import type { CertificateResponse, CompanyDocumentResponse, CompanyIdentificationResponse } from '../../api/types';
import { TreeCommands } from '../../constants';
import { detailsTooltip } from '../format';
import { formatBytes, formatDate } from '../../shell/displayFormat';
import { TreeNode, type ParentNode } from '../treeNode';
import { Missing, textOr } from '../placeholders';

export class DocumentNode extends TreeNode {
  constructor(
    parent: ParentNode,
    readonly document: CompanyDocumentResponse,
  ) {
    super(parent, `document-${document.ID}`);
  }

  treeItem(): vscode.TreeItem {
    const d = this.document;
    const size = typeof d.Size === 'number' ? formatBytes(d.Size) : undefined;
    return this.item(textOr(d.Name, Missing.name), {
      description: [d.FileType, size, formatDate(d.CreatedDate)].filter((v) => v).join(' · '),
      icon: new vscode.ThemeIcon('file'),
      contextValue: 'document',
      tooltip: detailsTooltip(textOr(d.Name, Missing.name), [
        [vscode.l10n.t('File type'), d.FileType],
        [vscode.l10n.t('Size'), size],
        [vscode.l10n.t('Added'), formatDate(d.CreatedDate)],
      ]),
    });
  }
}

export type CertificateValidity = 'expired' | 'expiring' | 'valid' | 'unknown';

const EXPIRY_WARNING_DAYS = 30;

/** Expired when the end date is past; expiring when it is within 30 days of `now`. */
export function certificateValidity(endDate: string | null | undefined, now = new Date()): CertificateValidity {
  if (!endDate) return 'unknown';
  const end = Date.parse(endDate);
  if (Number.isNaN(end)) return 'unknown';
  if (end < now.getTime()) return 'expired';
  if (end - now.getTime() <= EXPIRY_WARNING_DAYS * 24 * 60 * 60 * 1000) return 'expiring';
  return 'valid';
}

export class CertificateNode extends TreeNode {
  constructor(
    parent: ParentNode,
    readonly certificate: CertificateResponse,
  ) {
    super(parent, `certificate-${certificate.ID}`);
  }

  treeItem(): vscode.TreeItem {
    const c = this.certificate;
    const until = formatDate(c.EndDate);
    const validity = certificateValidity(c.EndDate);
    const warning = new vscode.ThemeColor('editorWarning.foreground');
    const [state, icon]: [string, vscode.ThemeIcon] =
      validity === 'expired'
        ? [vscode.l10n.t('expired'), new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'))]
        : validity === 'expiring'
          ? [vscode.l10n.t('expires {0}', until), new vscode.ThemeIcon('warning', warning)]
          : [until && vscode.l10n.t('valid until {0}', until), new vscode.ThemeIcon('verified')];
    return this.item(c.SerialNo || vscode.l10n.t('(no serial number)'), {
      description: [c.Type, state].filter((v) => v).join(' · '),
      icon,
      contextValue: 'certificate',
      command: { command: TreeCommands.certificatesDetails, title: vscode.l10n.t('Show Certificate Details'), arguments: [this] },
      // The password the server may send is never shown.
      tooltip: detailsTooltip(textOr(c.SerialNo, () => vscode.l10n.t('(no serial number)')), [
        [vscode.l10n.t('Type'), c.Type],
        [vscode.l10n.t('Tax number'), c.TaxNumber],
        [vscode.l10n.t('Valid from'), formatDate(c.StartDate)],
        [vscode.l10n.t('Valid until'), until],
        [vscode.l10n.t('Description'), c.Description],
      ]),
    });
  }
}

export class IdentificationNode extends TreeNode {
  constructor(
    parent: ParentNode,
    readonly identification: CompanyIdentificationResponse,
  ) {
    super(parent, `identification-${identification.ID}`);
  }

  treeItem(): vscode.TreeItem {
    const i = this.identification;
    const name = textOr(i.Name, Missing.name);
    const value = textOr(i.Value, Missing.value);
    return this.item(name, {
      description: value,
      icon: new vscode.ThemeIcon('symbol-key'),
      contextValue: 'identification',
      tooltip: `${name}: ${value}`,
    });
  }
}
