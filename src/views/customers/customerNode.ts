// One customer row: name, tax number and city; its details in the tooltip.
import * as vscode from 'vscode';
import type { CustomerResponse } from '../../api/types';
import { TreeCommands } from '../../constants';
import { detailsTooltip } from '../format';
import { TreeNode, type ParentNode } from '../treeNode';
import { Missing, textOr } from '../placeholders';

export class CustomerNode extends TreeNode {
  constructor(
    parent: ParentNode,
    readonly customer: CustomerResponse,
  ) {
    super(parent, `customer-${customer.ID}`);
  }

  treeItem(): vscode.TreeItem {
    const c = this.customer;
    return this.item(textOr(c.Name, Missing.name), {
      description: [textOr(c.TaxNumber, Missing.taxNumber), c.City].filter((v) => v).join(' · '),
      icon: new vscode.ThemeIcon(c.IsExport ? 'globe' : 'person'),
      contextValue: 'customer',
      // A click opens the customer's details (read-only), as reconciliation rows do.
      command: { command: TreeCommands.customersOpen, title: vscode.l10n.t('Open Customer Details'), arguments: [this] },
      tooltip: detailsTooltip(textOr(c.Name, Missing.name), [
        [vscode.l10n.t('Tax number'), c.TaxNumber],
        [vscode.l10n.t('Tax office'), c.TaxDepartment],
        [vscode.l10n.t('Address'), c.Address],
        [vscode.l10n.t('District'), c.District],
        [vscode.l10n.t('City'), c.City],
        [vscode.l10n.t('Country'), c.Country],
        [vscode.l10n.t('Postal code'), c.PostalCode],
        [vscode.l10n.t('Phone'), c.Phone],
        [vscode.l10n.t('Fax'), c.Fax],
        [vscode.l10n.t('E-mail'), c.Email],
        [vscode.l10n.t('Website'), c.WebSite],
        [vscode.l10n.t('Export customer'), c.IsExport ? vscode.l10n.t('Yes') : vscode.l10n.t('No')],
      ]),
    });
  }
}
