// The markdown of the tax-number hover card. Pure: strings come through the `l10n` passed in
// (vscode.l10n in the extension, a formatter in unit tests), dates through `formatDate`.
// Every value read from a file or from the registry is escaped: a title may hold markdown or HTML.

import { taxIdProblemText } from '../../domain/taxIdWording';
import { PaletteCommands } from '../../constants';
import type { OfflineTaxpayer } from '../../registry/offlineLookup';
import type { TaxIdCheck } from '../../domain/taxId';
import { displayText } from '../../domain/displayText';
import { escapeMarkdown } from '../../domain/markdown';
import type { GibPlaceholder } from '../../domain/ubl/taxSchemes';
import type { Translator } from '../diagnostics/messages';

/** The only commands the card's links may run (MarkdownString.isTrusted.enabledCommands). */
export const CARD_COMMANDS = {
  checkOnline: PaletteCommands.registryCheckTaxNumber,
  copy: PaletteCommands.registryCopyTaxNumber,
  download: PaletteCommands.registryDownload,
} as const;

export type RegistryFinding =
  | { state: 'noIndex' }
  | { state: 'missing'; downloadedAt: string }
  | { state: 'found'; taxpayer: OfflineTaxpayer };

export type OnlineFinding =
  | { state: 'registered'; title: string; aliases: string[] }
  | { state: 'notRegistered' }
  | { state: 'rateLimited' }
  | { state: 'noKey' }
  | { state: 'sandboxStopped' }
  | { state: 'failed'; reason: 'timeout' | 'network' | 'auth' | 'server' | 'other' };

export interface HoverCardInput {
  check: TaxIdCheck;
  /** Absent for an invalid number: the registry holds valid ones only. */
  registry?: RegistryFinding;
  /** Present only when the online look-up setting is on and the number is valid. */
  online?: OnlineFinding;
  /** The number is one of GİB's placeholders (it then fails the check digits on purpose). */
  placeholder?: GibPlaceholder;
}

/** How many alias names a line shows before it says "and N more". */
const ALIASES_SHOWN = 3;

/** A name on one line of the card: bidi and control characters dropped, line breaks folded, markup escaped. */
function inline(text: string): string {
  return escapeMarkdown(displayText(text));
}

function commandLink(label: string, command: string, args?: unknown): string {
  const query = args === undefined ? '' : `?${encodeURIComponent(JSON.stringify([args]))}`;
  return `[${inline(label)}](command:${command}${query})`;
}

function statusLine(check: TaxIdCheck, l10n: Translator, placeholder: GibPlaceholder | undefined): string {
  if (placeholder) return placeholder.kind === 'VKN' ? l10n.t('VKN — GİB placeholder') : l10n.t('TCKN — GİB placeholder');
  if (check.valid) return check.kind === 'VKN' ? l10n.t('VKN — valid') : l10n.t('TCKN — valid');
  return check.kind === 'VKN' ? l10n.t('VKN — invalid') : l10n.t('TCKN — invalid');
}

/** What is wrong with the number, in the words every other place uses (src/domain/taxIdWording.ts). */
export function invalidReason(check: TaxIdCheck, l10n: Translator): string | undefined {
  return check.valid ? undefined : taxIdProblemText(l10n, check);
}

function aliasList(names: string[], l10n: Translator): string {
  const shown = names.slice(0, ALIASES_SHOWN).map(inline).join(', ');
  return names.length > ALIASES_SHOWN ? l10n.t('{0} and {1} more', shown, names.length - ALIASES_SHOWN) : shown;
}

function registryLines(finding: RegistryFinding, l10n: Translator, formatDate: (iso: string) => string): string[] {
  if (finding.state === 'noIndex') {
    return [`${l10n.t('No registry list on this computer.')} ${commandLink(l10n.t('Download the registry list'), CARD_COMMANDS.download)}`];
  }
  if (finding.state === 'missing') {
    return [l10n.t('Not an e-invoice user: not in the registry list downloaded {0}.', formatDate(finding.downloadedAt))];
  }
  const t = finding.taxpayer;
  // A title the registry left empty (behaviour point nullableFields) is named, never a blank bold line.
  const lines = [`**${inline(t.title.trim() ? t.title : l10n.t('(no name)'))}**`];
  const facts = [t.type ? l10n.t('Type: {0}', inline(t.type)) : '', t.accountType ? l10n.t('Account type: {0}', inline(t.accountType)) : ''].filter(Boolean);
  if (facts.length) lines.push(facts.join(' · '));
  const active = t.aliases.filter((a) => !a.deleted);
  const withdrawn = t.aliases.filter((a) => a.deleted);
  lines.push(active.length > 0 ? l10n.t('Registered e-invoice user.') : l10n.t('Deregistered: every alias has been withdrawn.'));
  const pk = active.filter((a) => a.kind === 'PK').map((a) => a.name);
  const gb = active.filter((a) => a.kind === 'GB').map((a) => a.name);
  if (pk.length) lines.push(l10n.t('PK (receiving): {0}', aliasList(pk, l10n)));
  if (gb.length) lines.push(l10n.t('GB (sending): {0}', aliasList(gb, l10n)));
  if (withdrawn.length > ALIASES_SHOWN) lines.push(l10n.t('{0} withdrawn aliases', withdrawn.length));
  else if (withdrawn.length) lines.push(l10n.t('Withdrawn: {0}', withdrawn.map((a) => `${inline(a.name)} (${a.kind})`).join(', ')));
  lines.push(l10n.t('Registry list downloaded {0}', formatDate(t.downloadedAt)));
  return lines;
}

function onlineLine(finding: OnlineFinding, l10n: Translator): string {
  switch (finding.state) {
    case 'registered': {
      const title = finding.title.trim() ? finding.title : l10n.t('(no name)');
      return finding.aliases.length
        ? l10n.t('Online: registered e-invoice user, {0} ({1})', inline(title), aliasList(finding.aliases, l10n))
        : l10n.t('Online: registered e-invoice user, {0}', inline(title));
    }
    case 'notRegistered':
      return l10n.t('Online: not an e-invoice user.');
    case 'rateLimited':
      return l10n.t('Online look-up paused: too many in a short time. Hover again in a moment.');
    case 'noKey':
      return l10n.t('Online look-up needs an API key for the active environment.');
    case 'sandboxStopped':
      return l10n.t('Online look-up skipped: the sandbox is not running.');
    case 'failed':
      return {
        timeout: l10n.t('Online look-up failed: no answer in time.'),
        network: l10n.t('Online look-up failed: the server cannot be reached.'),
        auth: l10n.t('Online look-up failed: the API key was refused.'),
        server: l10n.t('Online look-up failed: server error.'),
        other: l10n.t('Online look-up failed.'),
      }[finding.reason];
  }
}

/** The card as markdown paragraphs (a blank line between them, as hovers render single lines joined). */
export function hoverCardMarkdown(input: HoverCardInput, l10n: Translator, formatDate: (iso: string) => string): string {
  const { check, placeholder } = input;
  const paragraphs = [`**${statusLine(check, l10n, placeholder)}** \u00a0\`${check.value.replace(/\D/g, '')}\``];
  const reason = placeholder
    ? placeholder.standsFor === 'companyAbroad'
      ? l10n.t("GİB's placeholder for a company abroad: accepted for the buyer of an e-Arşiv, export or tax-free invoice. It fails the check digits on purpose.")
      : l10n.t("GİB's placeholder for a foreign or unidentified person: accepted for the buyer of an e-Arşiv, export or tax-free invoice. It fails the check digits on purpose.")
    : invalidReason(check, l10n);
  if (reason) paragraphs.push(reason);
  if (input.registry) paragraphs.push(...registryLines(input.registry, l10n, formatDate));
  if (input.online) paragraphs.push(onlineLine(input.online, l10n));
  const links = [];
  if (check.valid) links.push(commandLink(l10n.t('Check online'), CARD_COMMANDS.checkOnline, { taxNumber: check.value, userType: 'Invoice' }));
  links.push(commandLink(l10n.t('Copy'), CARD_COMMANDS.copy, check.value));
  paragraphs.push(links.join(' · '));
  return paragraphs.join('\n\n');
}
