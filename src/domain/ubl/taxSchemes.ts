// Which UBL-TR identifiers carry a Turkish tax number (VKN: 10 digits, TCKN: 11) and how each is
// checked, and GİB's two placeholder numbers with where GİB prescribes them. Pure, no vscode import.
//
// Sources: GİB's UBL-TR code list (UBL-TR_Codelist.xml: PartyIdentificationIDType, ContactTypeIdentifierType)
// and schematron (UBL-TR_Common_Schematron.xml): PartyIdentificationTCKNVKNCheck (VKN = 10, TCKN = 11
// characters), SignatureCheck (cac:Signature/cbc:ID schemeID VKN_TCKN, 10 or 11), the YOLCUBERABERFATURA
// rule (TaxRepresentativeParty ARACIKURUMVKN, "a valid VKN/TCKN", 10 or 11); HKS invoices name the owner
// of the goods on each line (cac:Item/cac:AdditionalItemIdentification/cbc:ID schemeID MALSAHIBIVKNTCKN).
import { checkTaxId, type TaxIdKind, type TaxIdProblem } from '../taxId';
import { E_ARCHIVE_PROFILE, type PartyRole, type UblDocumentKind } from './documentTypes';

/** How a scheme's value is checked: as a VKN, as a TCKN, or as either, told apart by its length. */
export type TaxNumberCheck = 'VKN' | 'TCKN' | 'VKN_OR_TCKN';

export interface TaxScheme {
  /** The schemeID as GİB writes it. */
  id: string;
  check: TaxNumberCheck;
  /** Where UBL-TR documents use it. */
  usedIn: string;
}

export const TAX_SCHEMES: readonly TaxScheme[] = [
  { id: 'VKN', check: 'VKN', usedIn: 'cac:PartyIdentification/cbc:ID of any party (a company)' },
  { id: 'TCKN', check: 'TCKN', usedIn: 'cac:PartyIdentification/cbc:ID of any party (a person)' },
  { id: 'VKN_TCKN', check: 'VKN_OR_TCKN', usedIn: 'cac:Signature/cbc:ID (who signs the document)' },
  { id: 'ARACIKURUMVKN', check: 'VKN_OR_TCKN', usedIn: 'cac:TaxRepresentativeParty/cac:PartyIdentification/cbc:ID (intermediary of a YOLCUBERABERFATURA invoice)' },
  { id: 'MALSAHIBIVKNTCKN', check: 'VKN_OR_TCKN', usedIn: 'cac:Item/cac:AdditionalItemIdentification/cbc:ID (owner of the goods on an HKS line)' },
];

/** The tax scheme a schemeID names (white space and case forgiven), or undefined. */
export function taxSchemeOf(schemeId: string | undefined): TaxScheme | undefined {
  if (schemeId === undefined) return undefined;
  const id = schemeId.trim().toUpperCase();
  return TAX_SCHEMES.find((s) => s.id === id);
}

/** An element that holds a tax number: named by its schemeID, or by its place alone. */
export interface TaxNumberElement {
  /** Local name of the parent element. */
  parent: string;
  /** Local name of the element holding the number. */
  element: string;
  /** 'schemeID': a number when the schemeID is one of TAX_SCHEMES; else the scheme its place implies. */
  scheme: 'schemeID' | string;
}

export const TAX_NUMBER_ELEMENTS: readonly TaxNumberElement[] = [
  { parent: 'PartyIdentification', element: 'ID', scheme: 'schemeID' },
  { parent: 'AdditionalItemIdentification', element: 'ID', scheme: 'schemeID' },
  { parent: 'Signature', element: 'ID', scheme: 'schemeID' },
  // e-İrsaliye: the driver's TCKN is written in cac:DriverPerson/cbc:NationalityID.
  { parent: 'DriverPerson', element: 'NationalityID', scheme: 'TCKN' },
];

/** The entry for an element (local names), or undefined when the element never holds a tax number. */
export function taxNumberElement(parent: string | undefined, element: string): TaxNumberElement | undefined {
  return TAX_NUMBER_ELEMENTS.find((e) => e.element === element && e.parent === parent);
}

export interface GibPlaceholder {
  value: string;
  kind: TaxIdKind;
  standsFor: 'companyAbroad' | 'foreignOrUnidentifiedPerson';
}

/** Both fail the check digits on purpose. */
export const GIB_PLACEHOLDERS: readonly GibPlaceholder[] = [
  { value: '2222222222', kind: 'VKN', standsFor: 'companyAbroad' },
  { value: '11111111111', kind: 'TCKN', standsFor: 'foreignOrUnidentifiedPerson' },
];

/**
 * Where GİB prescribes the placeholders: the buyer of an invoice whose buyer has no Turkish number,
 * i.e. an e-Arşiv invoice to a buyer abroad or to an unidentified consumer, an export invoice, and a
 * tax-free (YOLCUBERABERFATURA) invoice to a traveller. This is our reading of GİB's e-Arşiv and
 * e-Fatura guides, kept in this one place: everywhere else a placeholder stands for a party that must
 * have a real number (the supplier, a despatch's parties, the signer), and is an error.
 */
export const PLACEHOLDER_CONTEXT = {
  documentKinds: new Set<UblDocumentKind>(['Invoice']),
  roles: new Set<PartyRole>(['customer', 'buyer']),
  profiles: new Set<string>([E_ARCHIVE_PROFILE, 'IHRACAT', 'YOLCUBERABERFATURA']),
} as const;

export function gibPlaceholderOf(value: string): GibPlaceholder | undefined {
  const v = value.trim();
  return GIB_PLACEHOLDERS.find((p) => p.value === v);
}

export interface TaxNumberContext {
  documentKind?: UblDocumentKind;
  role?: PartyRole;
  /** The document's ProfileID; undefined while none is written (then the role alone decides). */
  profile?: string;
}

/** Why a placeholder is wrong where it is; undefined where GİB prescribes it. */
export type PlaceholderMisplacement = 'documentKind' | 'role' | 'profile';

export function placeholderMisplacement(context: TaxNumberContext): PlaceholderMisplacement | undefined {
  if (context.documentKind && !PLACEHOLDER_CONTEXT.documentKinds.has(context.documentKind)) return 'documentKind';
  if (!context.role || !PLACEHOLDER_CONTEXT.roles.has(context.role)) return 'role';
  const profile = context.profile?.trim().toUpperCase();
  if (profile && !PLACEHOLDER_CONTEXT.profiles.has(profile)) return 'profile';
  return undefined;
}

export type TaxNumberVerdict =
  | { verdict: 'valid'; kind: TaxIdKind }
  | { verdict: 'empty'; check: TaxNumberCheck }
  | {
      verdict: 'invalid';
      /** What the number was declared or read as; undefined when neither the scheme nor its length says. */
      kind: TaxIdKind | undefined;
      problem: TaxIdProblem;
      /** For a checksum failure: the check digit(s) the first nine digits call for. */
      expectedCheckDigits?: string;
    }
  /** A GİB placeholder where GİB prescribes it: information, not an error. */
  | { verdict: 'placeholder'; placeholder: GibPlaceholder }
  | { verdict: 'misplacedPlaceholder'; placeholder: GibPlaceholder; reason: PlaceholderMisplacement };

/**
 * Checks a number written under `check`: a declared VKN or TCKN of the wrong length is a length error
 * of that kind; either kind goes by length. GİB's placeholders are judged as GİB prescribes them only
 * when `context` is given (else they are checked like any number).
 */
export function checkTaxNumber(check: TaxNumberCheck | undefined, input: string, context?: TaxNumberContext): TaxNumberVerdict {
  const value = input.trim();
  if (value.length === 0) return check ? { verdict: 'empty', check } : { verdict: 'invalid', kind: undefined, problem: 'empty' };
  const declared = check === 'VKN' || check === 'TCKN' ? check : undefined;
  const digitsOnly = /^\d+$/.test(value);
  if (context && digitsOnly) {
    const placeholder = gibPlaceholderOf(value);
    if (placeholder && (!declared || declared === placeholder.kind)) {
      const reason = placeholderMisplacement(context);
      return reason ? { verdict: 'misplacedPlaceholder', placeholder, reason } : { verdict: 'placeholder', placeholder };
    }
  }
  if (declared && digitsOnly && value.length !== (declared === 'VKN' ? 10 : 11)) return { verdict: 'invalid', kind: declared, problem: 'length' };
  const result = checkTaxId(value);
  if (result.valid) return { verdict: 'valid', kind: result.kind };
  const byLength = value.length === 10 ? 'VKN' : value.length === 11 ? 'TCKN' : undefined;
  const kind = declared ?? result.kind ?? (check === 'VKN_OR_TCKN' ? byLength : undefined);
  return { verdict: 'invalid', kind, problem: result.problem, ...(result.expectedCheckDigits ? { expectedCheckDigits: result.expectedCheckDigits } : {}) };
}
