// Two status bar entries: the active environment (click: switch) and the remaining credits
// (click: the account view). Credits refresh on demand and on a modest interval, but only while
// the window is focused, so an idle window makes no requests.
import * as vscode from 'vscode';
import { Commands, ProfileCommands, Views } from '../constants';
import type { CreditResponse as CreditPackage } from '../api';
import { displayText } from '../domain/displayText';
import { creditsTableMarkdown } from './creditsTable';
import { iconsAsText } from './displayItems';
import { formatCount, formatDate } from './displayFormat';
import type { EnvironmentId } from './environments';
import { describeError } from './errorMessages';
import { log } from './log';
import { environmentLabel, type ShellServices } from './services';
import { readSettings } from './settings';

const REFRESH_INTERVAL_MS = 5 * 60_000;

function creditsTooltip(packages: readonly CreditPackage[], environment: EnvironmentId): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${vscode.l10n.t('Nilvera credits ({0})', environmentLabel(environment))}**\n\n`);
  // Server values are escaped there (creditsTable.ts): a name or a date is never markup.
  md.appendMarkdown(creditsTableMarkdown(packages, { l10n: vscode.l10n, count: formatCount, day: formatDate }));
  md.appendMarkdown(`\n\n${vscode.l10n.t('Click to open the account view.')}`);
  return md;
}

/**
 * With one profile a click switches the environment and the tooltip links to the profiles; with
 * several (the accountant's case) a click switches the profile (company) and the tooltip links to
 * the environments.
 */
function profileTooltip(label: string, profileName: string, severalProfiles: boolean): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = { enabledCommands: [ProfileCommands.switch, Commands.environmentSwitch] };
  const [clicked, other, link] = severalProfiles
    ? [vscode.l10n.t('Nilvera profile: {0}. Click to switch.', profileName), vscode.l10n.t('Environment: {0}', label), `[$(server-environment) ${vscode.l10n.t('Switch Environment…')}](command:${Commands.environmentSwitch})`]
    : [vscode.l10n.t('Nilvera environment: {0}. Click to switch.', label), vscode.l10n.t('Profile: {0}', profileName), `[$(account) ${vscode.l10n.t('Switch Profile…')}](command:${ProfileCommands.switch})`];
  md.appendText(clicked);
  md.appendMarkdown('\n\n');
  md.appendText(other);
  md.appendMarkdown(` — ${link}`);
  return md;
}

export class ShellStatusBar implements vscode.Disposable {
  private readonly environmentItem: vscode.StatusBarItem;
  private readonly creditsItem: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;
  private inFlight: AbortController | undefined;
  private lastRefresh = 0;
  private hasKey = false;
  private shown = false;
  /** The newest refresh (it never rejects). */
  private latestRefresh: Promise<void> = Promise.resolve();

  constructor(private readonly services: ShellServices) {
    this.environmentItem = vscode.window.createStatusBarItem('nilvera.environment', vscode.StatusBarAlignment.Left, 10);
    this.environmentItem.name = vscode.l10n.t('Nilvera Environment');
    this.environmentItem.command = Commands.environmentSwitch;
    this.creditsItem = vscode.window.createStatusBarItem('nilvera.credits', vscode.StatusBarAlignment.Left, 9);
    this.creditsItem.name = vscode.l10n.t('Nilvera Credits');
    this.creditsItem.command = `${Views.account}.focus`;
    this.disposables.push(
      this.environmentItem,
      this.creditsItem,
      vscode.window.onDidChangeWindowState((state) => {
        this.schedule();
        if (state.focused && this.hasKey && Date.now() - this.lastRefresh > REFRESH_INTERVAL_MS) void this.refreshCredits();
      }),
    );
  }

  /** Shows the environment and, with a key, starts showing credits. */
  async update(environment: EnvironmentId, hasKey: boolean): Promise<void> {
    this.hasKey = hasKey;
    this.shown = true;
    const label = environmentLabel(environment);
    const profile = this.services.activeProfile();
    // A profile's name may be a company's name from the server: no bidi or control characters, and
    // a "$(icon)" in it stays text (the status bar reads "\$(" as the characters).
    const name = displayText(profile.name);
    // The profile's name is added when it says more than the environment (one company of several).
    this.environmentItem.text = `$(server-environment) Nilvera: ${label}${name !== label ? ` · ${iconsAsText(name)}` : ''}`;
    const several = this.services.profiles.store.all().length > 1;
    this.environmentItem.command = several ? ProfileCommands.switch : Commands.environmentSwitch;
    this.environmentItem.tooltip = profileTooltip(label, name, several);
    // Read out instead of the icon's name and the whole tooltip.
    this.environmentItem.accessibilityInformation = { label: vscode.l10n.t('Nilvera environment: {0}', name !== label ? `${label}, ${name}` : label), role: 'button' };
    this.environmentItem.show();
    this.schedule();
    if (hasKey) await this.refreshCredits();
    else this.creditsItem.hide();
  }

  /** Takes both entries away and stops refreshing (Nilvera not used in this workspace). */
  hide(): void {
    this.shown = false;
    this.hasKey = false;
    this.inFlight?.abort();
    this.environmentItem.hide();
    this.creditsItem.hide();
    this.schedule();
  }

  /**
   * Fetches the credits and shows them. A refresh started meanwhile replaces this one (its answer is
   * dropped); the promise settles once the newest refresh is shown, so a caller sees the final state.
   */
  async refreshCredits(): Promise<void> {
    if (!this.hasKey) {
      this.creditsItem.hide();
      return;
    }
    this.inFlight?.abort();
    const controller = new AbortController();
    this.inFlight = controller;
    let current = this.fetchAndShow(controller);
    this.latestRefresh = current;
    await current;
    while (this.latestRefresh !== current) {
      current = this.latestRefresh;
      await current;
    }
  }

  private async fetchAndShow(controller: AbortController): Promise<void> {
    const environment = this.services.environment();
    this.creditsItem.text = `$(sync~spin) ${vscode.l10n.t('Credits')}`;
    this.creditsItem.accessibilityInformation = { label: vscode.l10n.t('Nilvera credits: loading') };
    this.creditsItem.show();
    try {
      const client = await this.services.client();
      const packages = await client.account.credits({ signal: controller.signal });
      if (controller.signal.aborted) return;
      const remaining = packages.reduce((sum, p) => sum + (typeof p.RemainingCredit === 'number' ? p.RemainingCredit : 0), 0);
      const threshold = readSettings().creditWarningThreshold;
      this.creditsItem.text = `$(credit-card) ${remaining === 1 ? vscode.l10n.t('{0} credit', 1) : vscode.l10n.t('{0} credits', formatCount(remaining))}`;
      this.creditsItem.tooltip = creditsTooltip(packages, environment);
      const low = remaining < threshold;
      this.creditsItem.accessibilityInformation = { label: low ? vscode.l10n.t('Nilvera credits: {0} remaining, below your warning threshold of {1}', formatCount(remaining), formatCount(threshold)) : vscode.l10n.t('Nilvera credits: {0} remaining', formatCount(remaining)) };
      this.creditsItem.backgroundColor = low ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
      this.lastRefresh = Date.now();
    } catch (error) {
      if (controller.signal.aborted) return;
      const described = describeError(error);
      if (!described.show) return;
      log.warn(`Credits refresh failed: ${error instanceof Error ? error.message : String(error)}`);
      this.creditsItem.text = `$(warning) ${vscode.l10n.t('Credits')}`;
      this.creditsItem.tooltip = described.text;
      this.creditsItem.accessibilityInformation = { label: vscode.l10n.t('Nilvera credits could not be read; the tooltip says why.') };
      this.creditsItem.backgroundColor = undefined;
    } finally {
      if (this.inFlight === controller) this.inFlight = undefined;
    }
  }

  /** The periodic refresh runs only while a key is set and the window is focused. */
  private schedule(): void {
    const wanted = this.hasKey && vscode.window.state.focused;
    if (wanted && !this.timer) {
      this.timer = setInterval(() => void this.refreshCredits(), REFRESH_INTERVAL_MS);
    } else if (!wanted && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** What the entries show now (read by the extension-host tests). */
  snapshot(): { visible: boolean; environmentText: string; environmentCommand: string; creditsVisible: boolean; creditsText: string; creditsTooltip: string; warning: boolean } {
    const tooltip = this.creditsItem.tooltip;
    return {
      visible: this.shown,
      environmentText: this.environmentItem.text,
      environmentCommand: typeof this.environmentItem.command === 'string' ? this.environmentItem.command : (this.environmentItem.command?.command ?? ''),
      creditsVisible: this.hasKey,
      creditsText: this.creditsItem.text,
      creditsTooltip: typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? ''),
      warning: this.creditsItem.backgroundColor !== undefined,
    };
  }

  dispose(): void {
    this.inFlight?.abort();
    if (this.timer) clearInterval(this.timer);
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
