// How the structured view judges one identification of a party, exactly as the editor does: the scheme
// table and the check of src/domain/ubl/taxSchemes.ts (GİB's placeholders judged for the party's role,
// the document's type and profile), then the editor's finding for the verdict and its message
// (src/editor/diagnostics/rules.ts, messages.ts). What the editor underlines, the view says, in the same
// words. Pure: the registry status is added by the model, from a lookup it is given.
import type { PartyRole, UblDocumentKind } from '../../domain/ubl/documentTypes';
import { checkPartyTaxNumber, taxSchemeOf } from '../../domain/ubl/taxSchemes';
import { findingMessage, type Translator } from '../../editor/diagnostics/messages';
import { numberFinding, type DocumentTaxNumber, type FindingFacts } from '../../editor/diagnostics/rules';
import type { NumberFinding, PartyIdentification } from './types';

/** The English source text of a message, its {0}… filled in (the host passes vscode.l10n instead). */
export const sourceText: Translator = { t: (message, ...args) => message.replace(/\{(\d+)\}/g, (m, i: string) => (args[Number(i)] !== undefined ? String(args[Number(i)]) : m)) };

/** Where a number stands: the party it belongs to, and the document's type and ProfileID (upper-cased). */
export interface NumberPlace {
  role: PartyRole;
  documentKind: UblDocumentKind;
  profile: string | undefined;
}

export function findingView(facts: FindingFacts, l10n: Translator): NumberFinding {
  return { code: facts.code, severity: facts.severity, message: findingMessage(l10n, facts) };
}

/** The number as the editor's rules take it, or undefined when its scheme carries no tax number. */
export function documentTaxNumber(schemeId: string, value: string, place: NumberPlace): DocumentTaxNumber | undefined {
  const scheme = taxSchemeOf(schemeId);
  return scheme && { value: value.trim(), scheme, role: place.role, documentKind: place.documentKind, profile: place.profile };
}

/**
 * An identification checked: a tax number (by its scheme: VKN, TCKN, VKN_TCKN, ARACIKURUMVKN,
 * MALSAHIBIVKNTCKN…, any case) gets the verdict and the editor's finding; any other scheme (MERSISNO,
 * PARTYTYPE…) is shown as written.
 */
export function checkIdentification(schemeId: string, value: string, place: NumberPlace, l10n: Translator = sourceText): PartyIdentification {
  const shown = { scheme: schemeId, value: value.trim() };
  const number = documentTaxNumber(schemeId, value, place);
  const verdict = checkPartyTaxNumber(schemeId, value, { documentKind: place.documentKind, role: place.role, profile: place.profile });
  if (!number || !verdict) return { ...shown, findings: [] };
  const kind = verdict.verdict === 'valid' || verdict.verdict === 'invalid' ? verdict.kind : verdict.verdict === 'empty' ? (verdict.check === 'VKN_OR_TCKN' ? undefined : verdict.check) : verdict.placeholder.kind;
  const finding = numberFinding(number, verdict);
  return { ...shown, taxNumber: { role: place.role, verdict: verdict.verdict, ...(kind ? { kind } : {}) }, findings: finding ? [findingView(finding, l10n)] : [] };
}
