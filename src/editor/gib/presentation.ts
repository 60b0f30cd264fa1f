// What a GİB finding says in the editor and whether it is shown: GİB's own words, then, for the
// cryptic rules, a plain explanation; signature-only findings of an unsigned draft only when asked for.
// No vscode (the translator comes in as a parameter).
import type { Translator } from '../../domain/taxIdWording';
import type { GibFinding } from '../../gib/engine';
import { explanationFor } from './explanations';

/** The diagnostic code of the one note a UBL-TR document gets while GİB's rules are not installed. */
export const GIB_NO_RULES_CODE = 'gib-rules-missing';

/** GİB's message, and on the next line our explanation where the rule is one we explain. */
export function gibMessage(l10n: Translator, finding: Pick<GibFinding, 'message' | 'rule' | 'test'>): string {
  const explanation = explanationFor(finding)?.explain(l10n);
  return explanation ? `${finding.message.trim()}\n${explanation}` : finding.message.trim();
}

/**
 * The findings to show: signature-only ones (`draft`) only with the setting on, and a note (the
 * e-Müstahsil one) once per document.
 */
export function shownFindings<F extends Pick<GibFinding, 'draft' | 'kind' | 'message'>>(findings: readonly F[], showSignatureFindings: boolean): F[] {
  const notes = new Set<string>();
  return findings.filter((f) => {
    if (f.draft && !showSignatureFindings) return false;
    if (f.kind !== 'note') return true;
    if (notes.has(f.message)) return false;
    notes.add(f.message);
    return true;
  });
}

/** The note of a UBL-TR document while GİB's rules are not on this computer. */
export function noRulesMessage(l10n: Translator): string {
  return l10n.t("GİB's validation rules are not on this computer: download them, or use them from a file, to check this document against GİB's XSD and rules before sending it.");
}
