// The account view: groups for the company, modules, credits, alerts, campaigns, exchange rates,
// mailing settings and the interactive tax office. Each group loads on its own when expanded, so
// one failing call shows one error item and the other groups still work.
import * as vscode from 'vscode';
import { TreeCommands } from '../../constants';
import type {
  AlertResponse,
  CampaignResponse,
  CompanyListItem,
  CompanyResponse,
  CompanyModulesResponse,
  CreditResponse,
  ExchangeRateResponse,
  InteractiveTaxOfficeUserResponse,
  MailingSettingResponse,
} from '../../api/types';
import type { ClientSource } from '../clientSource';
import { datePart, detailsTooltip, escapeMarkdown } from '../format';
import { ListNode } from '../listNode';
import { ListedCompanyNode } from './companyListNodes';
import { ParentNode, TreeNode, type ChangeListener } from '../treeNode';
import { amountOr, firstText, Missing, textOr } from '../placeholders';

export type AccountGroupKey = 'company' | 'companies' | 'modules' | 'credits' | 'alerts' | 'campaigns' | 'exchangeRates' | 'mailing' | 'taxOffice';

/** A simple row with a label, a description, an icon and optionally a click command. */
export class ValueNode extends TreeNode {
  constructor(
    parent: ParentNode,
    key: string,
    readonly label: string,
    readonly description: string,
    private readonly options: { icon?: vscode.ThemeIcon; contextValue?: string; command?: vscode.Command; tooltip?: string | vscode.MarkdownString } = {},
  ) {
    super(parent, key);
  }

  treeItem(): vscode.TreeItem {
    const item = this.item(this.label);
    item.description = this.description;
    if (this.options.icon) item.iconPath = this.options.icon;
    item.contextValue = this.options.contextValue ?? 'value';
    if (this.options.command) item.command = this.options.command;
    if (this.options.tooltip) item.tooltip = this.options.tooltip;
    return item;
  }
}

export class MailingNode extends TreeNode {
  constructor(
    parent: ParentNode,
    readonly setting: MailingSettingResponse,
  ) {
    super(parent, `mailing-${setting.ModuleID}`);
  }

  /** Portal (e-mail) and WhatsApp have switches in the API; SMS has none. */
  get toggleable(): boolean {
    return this.setting.ModuleID === 'Portal' || this.setting.ModuleID === 'WhatsApp';
  }

  treeItem(): vscode.TreeItem {
    const s = this.setting;
    const label = s.ModuleID === 'Portal' ? vscode.l10n.t('E-mail') : s.ModuleID === 'Sms' ? vscode.l10n.t('SMS') : s.ModuleID === 'WhatsApp' ? 'WhatsApp' : textOr(s.ModuleID, Missing.name);
    const item = this.item(label);
    item.description = s.IsActive ? vscode.l10n.t('on') : vscode.l10n.t('off');
    item.contextValue = this.toggleable ? 'mailing.toggleable' : 'mailing';
    if (this.toggleable) {
      // A checkbox (the account view handles its changes): ticked = sending on.
      item.checkboxState = {
        state: s.IsActive ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked,
        tooltip: s.IsActive ? vscode.l10n.t('Untick to turn {0} sending off.', label) : vscode.l10n.t('Tick to turn {0} sending on.', label),
      };
      item.tooltip = s.IsActive ? vscode.l10n.t('Untick to turn {0} sending off.', label) : vscode.l10n.t('Tick to turn {0} sending on.', label);
    } else {
      item.iconPath = new vscode.ThemeIcon(s.IsActive ? 'pass-filled' : 'circle-large-outline');
      item.tooltip = vscode.l10n.t('This setting cannot be changed through the API.');
    }
    return item;
  }
}

function alertIcon(type: AlertResponse['Type']): vscode.ThemeIcon {
  if (type === 'Error') return new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
  if (type === 'Warning') return new vscode.ThemeIcon('warning', new vscode.ThemeColor('editorWarning.foreground'));
  return new vscode.ThemeIcon('info');
}

export class AccountRoot extends ParentNode {
  constructor(
    notify: ChangeListener,
    private readonly client: ClientSource,
  ) {
    super(undefined, 'account', notify);
  }

  treeItem(): vscode.TreeItem {
    return this.item('account');
  }

  /** The group showing `key`, once the root's children exist. */
  group(key: AccountGroupKey): ListNode<unknown> | undefined {
    return this.peek()?.find((n): n is ListNode<unknown> => n instanceof ListNode && n.id === `${this.id}/${key}`);
  }

  /** The groups, made once: a refresh reloads each group instead of replacing it. */
  private groups: ListNode<unknown>[] | undefined;

  protected async load(): Promise<TreeNode[]> {
    return (this.groups ??= this.createGroups());
  }

  /**
   * Forgets every group's rows but keeps the groups: a refresh while they load reuses each group's load
   * in flight instead of sending all eight requests again.
   */
  override invalidate(): void {
    super.invalidate();
    for (const g of this.groups ?? []) g.invalidate();
  }

  private createGroups(): ListNode<unknown>[] {
    const c = this.client;
    const none = () => vscode.l10n.t('None');
    const group = <T>(key: AccountGroupKey, label: () => string, icon: string, fetch: () => Promise<readonly T[]>, toNode: (r: T, p: ListNode<T>) => TreeNode, expanded = false) =>
      new ListNode<T>(this, key, this.notify, fetch, toNode, none, { label, icon, expanded, contextValue: `accountGroup.${key}` }, () => notOfferedText(key)) as ListNode<unknown>;

    return [
      group<CompanyResponse>(
        'company',
        () => vscode.l10n.t('Company'),
        'organization',
        async () => [await (await c()).company.get()],
        (company, p) =>
          new ValueNode(p, 'summary', textOr(company.Name, Missing.name), textOr(company.TaxNumber, Missing.taxNumber), {
            icon: new vscode.ThemeIcon('organization'),
            contextValue: 'company',
            command: { command: TreeCommands.accountOpenCompany, title: vscode.l10n.t('Edit Company Details') },
            tooltip: detailsTooltip(textOr(company.Name, Missing.name), [
              [vscode.l10n.t('Tax number'), company.TaxNumber],
              [vscode.l10n.t('Tax office'), company.TaxOffice],
              [vscode.l10n.t('Address'), company.Address],
              [vscode.l10n.t('City'), company.City],
              [vscode.l10n.t('E-mail'), company.Email],
              [vscode.l10n.t('Phone'), company.PhoneNumber],
            ]),
          }),
        true,
      ),
      group<CompanyListItem>('companies', () => vscode.l10n.t('Companies'), 'briefcase', async () => (await c()).company.list(), (co, p) => new ListedCompanyNode(p, co)),
      group<CompanyModulesResponse>('modules', () => vscode.l10n.t('Modules'), 'extensions', async () => (await c()).company.modules(), (m, p) =>
        new ValueNode(p, `module-${m.Name}`, textOr(m.Name, Missing.name), m.IsActive ? vscode.l10n.t('active') : vscode.l10n.t('inactive'), {
          icon: new vscode.ThemeIcon(m.IsActive ? 'check' : 'circle-slash'),
          tooltip: m.Description ?? undefined,
        }),
      ),
      group<CreditResponse>('credits', () => vscode.l10n.t('Credits'), 'credit-card', async () => (await c()).account.credits(), (cr, p) =>
        new ValueNode(p, `credit-${cr.ModuleID}-${cr.Name}`, textOr(cr.Name, Missing.name), vscode.l10n.t('{0} of {1} left', amountOr(cr.RemainingCredit), amountOr(cr.TotalCredit)), {
          icon: new vscode.ThemeIcon('credit-card'),
          tooltip: detailsTooltip(textOr(cr.Name, Missing.name), [
            [vscode.l10n.t('Used'), cr.UsedCredit],
            [vscode.l10n.t('Remaining'), cr.RemainingCredit],
            [vscode.l10n.t('Total'), cr.TotalCredit],
            [vscode.l10n.t('Ends'), datePart(cr.EndDate)],
          ]),
        }),
      ),
      group<AlertResponse>('alerts', () => vscode.l10n.t('Alerts'), 'bell', async () => (await c()).account.alerts(), (a, p) =>
        new ValueNode(p, `alert-${a.ID}`, textOr(a.Message, Missing.message), datePart(a.CreationDate), { icon: alertIcon(a.Type), contextValue: `alert.${a.Type}`, tooltip: textOr(a.Message, Missing.message) }),
      ),
      group<CampaignResponse>('campaigns', () => vscode.l10n.t('Campaigns'), 'megaphone', async () => (await c()).account.campaigns(), (cp, p) =>
        new ValueNode(p, `campaign-${cp.Name}-${cp.CreatedDate}`, firstText([cp.Name, cp.Subject], Missing.name), vscode.l10n.t('until {0}', textOr(datePart(cp.EndDate), Missing.date)), {
          icon: new vscode.ThemeIcon(cp.Url ? 'link-external' : 'megaphone'),
          contextValue: cp.Url ? 'campaign.link' : 'campaign',
          ...(cp.Url ? { command: { command: TreeCommands.accountOpenCampaign, title: vscode.l10n.t('Open Campaign'), arguments: [cp.Url] } } : {}),
          tooltip: new vscode.MarkdownString(`**${escapeMarkdown(firstText([cp.Subject, cp.Name], Missing.name))}**\n\n${escapeMarkdown(textOr(cp.Content, Missing.content))}`),
        }),
      ),
      group<[string, string]>('exchangeRates', () => vscode.l10n.t('Exchange Rates'), 'graph-line', async () => exchangeRows(await (await c()).account.exchangeRate()), ([currency, text], p) =>
        new ValueNode(p, `rate-${currency}`, currency, text, { icon: new vscode.ThemeIcon('graph-line') }),
      ),
      group<MailingSettingResponse>('mailing', () => vscode.l10n.t('Mailing'), 'mail', async () => (await c()).mailing.settings(), (s, p) => new MailingNode(p, s)),
      group<InteractiveTaxOfficeUserResponse>('taxOffice', () => vscode.l10n.t('Interactive Tax Office'), 'account', async () => [await (await c()).taxOffice.get()], (t, p) =>
        // The password is never shown, only whether one is stored.
        new ValueNode(p, 'user', t.UserName || vscode.l10n.t('(no user name)'), t.Password ? vscode.l10n.t('password stored') : vscode.l10n.t('no password'), {
          icon: new vscode.ThemeIcon('account'),
          contextValue: 'taxOffice',
        }),
      ),
    ];
  }
}

/** The row a group shows when the server does not offer its operation (its GET answered 404). */
function notOfferedText(key: AccountGroupKey): string {
  switch (key) {
    case 'company':
      return vscode.l10n.t('This server does not offer company data');
    case 'companies':
      return vscode.l10n.t('This server does not offer the list of your companies');
    case 'modules':
      return vscode.l10n.t('This server does not offer company modules');
    case 'credits':
      return vscode.l10n.t('This server does not offer credits');
    case 'alerts':
      return vscode.l10n.t('This server does not offer alerts');
    case 'campaigns':
      return vscode.l10n.t('This server does not offer campaigns');
    case 'exchangeRates':
      return vscode.l10n.t('This server does not offer exchange rates');
    case 'mailing':
      return vscode.l10n.t('This server does not offer mailing settings');
    case 'taxOffice':
      return vscode.l10n.t('This server does not offer the interactive tax office settings');
  }
}

function exchangeRows(rates: ExchangeRateResponse): Array<[string, string]> {
  const pair = (buy: string | null, sale: string | null) => vscode.l10n.t('buy {0} · sell {1}', buy ?? '-', sale ?? '-');
  return [
    ['USD', pair(rates.USDBuy, rates.USDSale)],
    ['EUR', pair(rates.EUROBuy, rates.EUROSale)],
    ['GBP', pair(rates.GBPBuy, rates.GBPSale)],
  ];
}

