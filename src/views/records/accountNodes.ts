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
import type { ShellServices } from '../../shell/services';
import { escapeMarkdown } from '../../domain/markdown';
import { detailsTooltip } from '../format';
import { formatDate } from '../../shell/displayFormat';
import { ListNode, type ListSpec } from '../listNode';
import { InfoNode, ParentNode, TreeNode, type ChangeListener, type ItemParts } from '../treeNode';
import { amountOr, Missing, textOr } from '../placeholders';
import { channelOf } from '../../shell/mailingSwitch';

export type AccountGroupKey = 'company' | 'companies' | 'modules' | 'credits' | 'alerts' | 'campaigns' | 'exchangeRates' | 'mailing' | 'taxOffice';

export class MailingNode extends TreeNode {
  constructor(
    parent: ParentNode,
    readonly setting: MailingSettingResponse,
  ) {
    super(parent, `mailing-${setting.ModuleID}`);
  }

  /** Portal (e-mail) and WhatsApp have switches in the API; SMS has none. */
  get toggleable(): boolean {
    return channelOf(this.setting) !== undefined;
  }

  treeItem(): vscode.TreeItem {
    const s = this.setting;
    const label = s.ModuleID === 'Portal' ? vscode.l10n.t('E-mail') : s.ModuleID === 'Sms' ? vscode.l10n.t('SMS') : s.ModuleID === 'WhatsApp' ? 'WhatsApp' : textOr(s.ModuleID, Missing.name);
    const description = s.IsActive ? vscode.l10n.t('on') : vscode.l10n.t('off');
    // What a screen reader says: the channel, whether sending is on, and what can be done with the row.
    const spoken = s.IsActive ? vscode.l10n.t('{0} sending: on', label) : vscode.l10n.t('{0} sending: off', label);
    if (!this.toggleable) {
      const icon = new vscode.ThemeIcon(s.IsActive ? 'pass-filled' : 'circle-large-outline');
      const tooltip = vscode.l10n.t('This setting cannot be changed through the API.');
      return this.item(label, { description, icon, contextValue: 'mailing', tooltip, accessibilityInformation: { label: `${spoken}. ${tooltip}` } });
    }
    const tooltip = s.IsActive ? vscode.l10n.t('Untick to turn {0} sending off.', label) : vscode.l10n.t('Tick to turn {0} sending on.', label);
    // A checkbox (the account view handles its changes): ticked = sending on.
    const state = s.IsActive ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked;
    const checkboxState = { state, tooltip, accessibilityInformation: { label: vscode.l10n.t('{0} sending', label), role: 'checkbox' } };
    return this.item(label, { description, contextValue: 'mailing.toggleable', checkboxState, tooltip, accessibilityInformation: { label: `${spoken}. ${tooltip}` } });
  }
}

/** A company GET /Company/List names for the calling user; it offers "Add as Profile…" (src/profiles/profileCommands.ts). */
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

/** An alert's severity as a screen reader says it and as its icon shows it. */
function alertLook(type: AlertResponse['Type']): { severity: string; icon: vscode.ThemeIcon } {
  if (type === 'Error') return { severity: vscode.l10n.t('Error'), icon: new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground')) };
  if (type === 'Warning') return { severity: vscode.l10n.t('Warning'), icon: new vscode.ThemeIcon('warning', new vscode.ThemeColor('editorWarning.foreground')) };
  return { severity: vscode.l10n.t('Information'), icon: new vscode.ThemeIcon('info') };
}

export class AccountRoot extends ParentNode {
  constructor(
    notify: ChangeListener,
    private readonly client: ShellServices['client'],
  ) {
    super(undefined, 'account', notify);
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
    const group = <T>(key: AccountGroupKey, icon: string, spec: GroupSpec<T>, expanded = false) =>
      new ListNode<T>(this, key, this.notify, {
        ...spec,
        empty: () => vscode.l10n.t('None'),
        presentation: { label: spec.label, icon, expanded, contextValue: `accountGroup.${key}` },
      }) as ListNode<unknown>;
    const value = (p: ParentNode, key: string, label: string, description: string, parts: ItemParts) =>
      new InfoNode(p, key, label, { description, contextValue: 'value', ...parts });

    return [
      group<CompanyResponse>(
        'company',
        'organization',
        {
          label: () => vscode.l10n.t('Company'),
          notOffered: () => vscode.l10n.t('This server does not offer company data'),
          fetch: async () => [await (await c()).company.get()],
          toNode: (company, p) =>
            value(p, 'summary', textOr(company.Name, Missing.name), textOr(company.TaxNumber, Missing.taxNumber), {
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
        },
        true,
      ),
      group<CompanyListItem>('companies', 'briefcase', {
        label: () => vscode.l10n.t('Companies'),
        notOffered: () => vscode.l10n.t('This server does not offer the list of your companies'),
        fetch: async () => (await c()).company.list(),
        toNode: (co, p) => new ListedCompanyNode(p, co),
      }),
      group<CompanyModulesResponse>('modules', 'extensions', {
        label: () => vscode.l10n.t('Modules'),
        notOffered: () => vscode.l10n.t('This server does not offer company modules'),
        fetch: async () => (await c()).company.modules(),
        toNode: (m, p) =>
          value(p, `module-${m.Name}`, textOr(m.Name, Missing.name), m.IsActive ? vscode.l10n.t('active') : vscode.l10n.t('inactive'), {
            icon: new vscode.ThemeIcon(m.IsActive ? 'check' : 'circle-slash'),
            tooltip: m.Description ?? undefined,
          }),
      }),
      group<CreditResponse>('credits', 'credit-card', {
        label: () => vscode.l10n.t('Credits'),
        notOffered: () => vscode.l10n.t('This server does not offer credits'),
        fetch: async () => (await c()).account.credits(),
        toNode: (cr, p) =>
          value(p, `credit-${cr.ModuleID}-${cr.Name}`, textOr(cr.Name, Missing.name), vscode.l10n.t('{0} of {1} left', amountOr(cr.RemainingCredit), amountOr(cr.TotalCredit)), {
            icon: new vscode.ThemeIcon('credit-card'),
            tooltip: detailsTooltip(textOr(cr.Name, Missing.name), [
              [vscode.l10n.t('Used'), cr.UsedCredit],
              [vscode.l10n.t('Remaining'), cr.RemainingCredit],
              [vscode.l10n.t('Total'), cr.TotalCredit],
              [vscode.l10n.t('Ends'), formatDate(cr.EndDate)],
            ]),
          }),
      }),
      group<AlertResponse>('alerts', 'bell', {
        label: () => vscode.l10n.t('Alerts'),
        notOffered: () => vscode.l10n.t('This server does not offer alerts'),
        fetch: async () => (await c()).account.alerts(),
        toNode: (a, p) => {
          const { severity, icon } = alertLook(a.Type);
          const message = textOr(a.Message, Missing.message);
          return value(p, `alert-${a.ID}`, message, formatDate(a.CreationDate), {
            icon,
            contextValue: `alert.${a.Type}`,
            tooltip: message,
            // The severity is only an icon's colour on screen: a screen reader hears it.
            accessibilityInformation: { label: `${severity}: ${message}, ${formatDate(a.CreationDate)}` },
          });
        },
      }),
      group<CampaignResponse>('campaigns', 'megaphone', {
        label: () => vscode.l10n.t('Campaigns'),
        notOffered: () => vscode.l10n.t('This server does not offer campaigns'),
        fetch: async () => (await c()).account.campaigns(),
        toNode: (cp, p) => {
          // The row is named by the campaign's name, its tooltip by its subject; each falls back on the other.
          const name = textOr(cp.Name, () => textOr(cp.Subject, Missing.name));
          const subject = textOr(cp.Subject, () => textOr(cp.Name, Missing.name));
          return value(p, `campaign-${cp.Name}-${cp.CreatedDate}`, name, vscode.l10n.t('until {0}', textOr(formatDate(cp.EndDate), Missing.date)), {
            icon: new vscode.ThemeIcon(cp.Url ? 'link-external' : 'megaphone'),
            contextValue: cp.Url ? 'campaign.link' : 'campaign',
            command: cp.Url ? { command: TreeCommands.accountOpenCampaign, title: vscode.l10n.t('Open Campaign'), arguments: [cp.Url] } : undefined,
            tooltip: new vscode.MarkdownString(`**${escapeMarkdown(subject)}**\n\n${escapeMarkdown(textOr(cp.Content, Missing.content))}`),
          });
        },
      }),
      group<[string, string]>('exchangeRates', 'graph-line', {
        label: () => vscode.l10n.t('Exchange Rates'),
        notOffered: () => vscode.l10n.t('This server does not offer exchange rates'),
        fetch: async () => exchangeRows(await (await c()).account.exchangeRate()),
        toNode: ([currency, text], p) => value(p, `rate-${currency}`, currency, text, { icon: new vscode.ThemeIcon('graph-line') }),
      }),
      group<MailingSettingResponse>('mailing', 'mail', {
        label: () => vscode.l10n.t('Mailing'),
        notOffered: () => vscode.l10n.t('This server does not offer mailing settings'),
        fetch: async () => (await c()).mailing.settings(),
        toNode: (s, p) => new MailingNode(p, s),
      }),
      group<InteractiveTaxOfficeUserResponse>('taxOffice', 'account', {
        label: () => vscode.l10n.t('Interactive Tax Office'),
        notOffered: () => vscode.l10n.t('This server does not offer the interactive tax office settings'),
        fetch: async () => [await (await c()).taxOffice.get()],
        // The password is never shown, only whether one is stored.
        toNode: (t, p) =>
          value(p, 'user', t.UserName || vscode.l10n.t('(no user name)'), t.Password ? vscode.l10n.t('password stored') : vscode.l10n.t('no password'), {
            icon: new vscode.ThemeIcon('account'),
            contextValue: 'taxOffice',
          }),
      }),
    ];
  }
}

/** A group of the account view: its label, its row when the server lacks the operation, its rows. */
type GroupSpec<T> = Pick<ListSpec<T>, 'fetch' | 'toNode' | 'notOffered'> & { label: () => string };

function exchangeRows(rates: ExchangeRateResponse): Array<[string, string]> {
  const pair = (buy: string | null, sale: string | null) => vscode.l10n.t('buy {0} · sell {1}', buy ?? '-', sale ?? '-');
  return [
    ['USD', pair(rates.USDBuy, rates.USDSale)],
    ['EUR', pair(rates.EUROBuy, rates.EUROSale)],
    ['GBP', pair(rates.GBPBuy, rates.GBPSale)],
  ];
}

