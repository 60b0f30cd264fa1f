// The Account view's "Companies" group: the companies GET /Company/List names for the calling
// user. Each row offers "Add as Profile…" (src/profiles/profileCommands.ts).
import * as vscode from 'vscode';
import type { CompanyListItem } from '../../api/types';
import type { ParentNode } from '../treeNode';
import { TreeNode } from '../treeNode';

export class ListedCompanyNode extends TreeNode {
  constructor(
    parent: ParentNode,
    readonly company: CompanyListItem,
  ) {
    super(parent, `listed-${company.TaxNumber ?? company.Name ?? '?'}`);
  }

  treeItem(): vscode.TreeItem {
    return this.item(this.company.Name ?? '-', {
      description: [this.company.TaxNumber, this.company.IsActive === false ? vscode.l10n.t('inactive') : undefined].filter(Boolean).join(' · '),
      icon: new vscode.ThemeIcon('briefcase'),
      contextValue: 'listedCompany',
      tooltip: vscode.l10n.t('Use "Add as Profile…" to work with this company in its own profile.'),
    });
  }
}
