// How the structured view classifies one identification of a party and checks it: the one function
// that decides which identifications are tax numbers and whether a tax number is right. Today a tax
// number is an identification with schemeID VKN or TCKN (a driver's NationalityID counts as TCKN),
// checked by its check digits; every other scheme (MERSISNO, TICARETSICILNO, HIZMETNO…) is shown
// as it is. Pure: the registry status is added by the model, from a lookup it is given.
import { checkTaxId, type TaxIdKind, type TaxIdProblem } from '../../domain/taxId';

export type PartyIdVerdict =
  | { taxNumber: false }
  | { taxNumber: true; kind: TaxIdKind; valid: true }
  | {
      taxNumber: true;
      kind: TaxIdKind;
      valid: false;
      problem: TaxIdProblem;
      /** For a checksum failure: the number with the check digit(s) its first nine digits call for. */
      corrected?: string;
    };

/** Classifies and checks an identification by its schemeID (case and spaces ignored) and value. */
export function checkPartyIdentification(schemeID: string | undefined, value: string): PartyIdVerdict {
  const scheme = schemeID?.trim().toUpperCase();
  if (scheme !== 'VKN' && scheme !== 'TCKN') return { taxNumber: false };
  const trimmed = value.trim();
  // The scheme fixes the length: an 11-digit "VKN" is a length error, not a valid TCKN.
  if (/^\d+$/.test(trimmed) && trimmed.length !== (scheme === 'VKN' ? 10 : 11)) return { taxNumber: true, kind: scheme, valid: false, problem: 'length' };
  const check = checkTaxId(trimmed);
  if (check.valid) return { taxNumber: true, kind: scheme, valid: true };
  const corrected = check.problem === 'checksum' && check.expectedCheckDigits ? trimmed.slice(0, 9) + check.expectedCheckDigits : undefined;
  return { taxNumber: true, kind: scheme, valid: false, problem: check.problem, ...(corrected ? { corrected } : {}) };
}
