// What is wrong in a scanned UBL-TR document or CSV: tax numbers checked under their scheme (with GİB's
// placeholders where GİB prescribes them, src/domain/ubl/taxSchemes.ts), and the receiver's registration
// against the profile in the registry list its document type is sent by (documentTypes.ts). Pure: the
// registry comes in as lookup functions, the wording is in ./messages.
import { activeAliases, type OfflineTaxpayer } from '../../registry/offlineLookup';
import type { TaxIdKind, TaxIdProblem } from '../../domain/taxId';
import type { PartyRole, RegistryDocumentType, UblDocumentKind, UblDocumentType } from '../../domain/ubl/documentTypes';
import { checkTaxNumber, type GibPlaceholder, type PlaceholderMisplacement, type TaxNumberVerdict, type TaxScheme } from '../../domain/ubl/taxSchemes';
import type { CsvScan } from '../../domain/csvScan';
import type { ScannedTaxNumber, UblScan } from './ublScan';
import { isGibSampleTaxNumber } from '../../gib/sampleTaxNumbers';

export const FindingCodes = {
  invalidTaxId: 'invalid-tax-id',
  notEInvoiceUser: 'not-e-invoice-user',
  eInvoiceUserOnEArchive: 'e-invoice-user-on-e-archive',
  registryNotDownloaded: 'registry-not-downloaded',
  notEDespatchUser: 'not-e-despatch-user',
  despatchRegistryNotDownloaded: 'despatch-registry-not-downloaded',
  gibPlaceholder: 'gib-placeholder',
  misplacedGibPlaceholder: 'misplaced-gib-placeholder',
  notUtf8: 'not-utf8',
} as const;
export type FindingCode = (typeof FindingCodes)[keyof typeof FindingCodes];

export type FindingSeverity = 'error' | 'warning' | 'information';

/** Registered: an active alias in the lists of the document type; deregistered: listed, every alias deleted. */
export type RegistryStatus = 'registered' | 'deregistered' | 'notRegistered';

export interface InvalidTaxId {
  /** What the number was declared or read as (schemeID, or its length); undefined when neither says. */
  kind: TaxIdKind | undefined;
  problem: TaxIdProblem;
  /** For a checksum failure: the check digit(s) the first nine digits call for. */
  expectedCheckDigits?: string;
  /** A checksum failure on a number of GİB's sample documents (src/gib/sampleTaxNumbers.ts): said so, no fix. */
  gibSample?: true;
}

/** What a finding says, without its place in the text: enough for its message (./messages) and severity. */
export interface FindingFacts {
  code: FindingCode;
  severity: FindingSeverity;
  taxNumber: string;
  invalid?: InvalidTaxId;
  profile?: string;
  status?: RegistryStatus;
  title?: string;
  /** The receiver's first active PK (receiving) alias, when the index has one. */
  activePkAlias?: string;
  /** In a document: the party the number belongs to, the document's type and the number's scheme. */
  role?: PartyRole;
  documentKind?: UblDocumentKind;
  scheme?: string;
  placeholder?: GibPlaceholder;
  misplacement?: PlaceholderMisplacement;
  /** On a "list not downloaded" note: the other registry list family is downloaded. */
  otherListDownloaded?: boolean;
}

export interface Finding extends FindingFacts {
  start: number;
  end: number;
}

/** A taxpayer's registration in a list family, with its title and first active PK (receiving) alias. */
export function registration(taxpayer: OfflineTaxpayer | undefined): { status: RegistryStatus; title?: string; pkAlias?: string } {
  if (!taxpayer) return { status: 'notRegistered' };
  const active = activeAliases(taxpayer);
  const pkAlias = active.find((a) => a.kind === 'PK')?.name;
  const status = active.length > 0 ? 'registered' : 'deregistered';
  return { status, title: taxpayer.title, ...(pkAlias ? { pkAlias } : {}) };
}

export type RegistryLookup = (taxNumber: string) => OfflineTaxpayer | undefined;
/** The look-up in one registry list family, or undefined when none of its lists is downloaded. */
export type RegistryLookups = (registry: RegistryDocumentType) => RegistryLookup | undefined;

type InvalidVerdict = Extract<TaxNumberVerdict, { verdict: 'invalid' }>;

function invalidOf({ kind, problem, expectedCheckDigits }: InvalidVerdict, value: string): InvalidTaxId {
  const gibSample = problem === 'checksum' && isGibSampleTaxNumber(value);
  return { kind, problem, ...(expectedCheckDigits ? { expectedCheckDigits } : {}), ...(gibSample ? { gibSample: true as const } : {}) };
}

/** What is wrong with a number of no declared kind (a CSV cell, a number under a quick fix); undefined when valid. */
export function checkNumber(value: string): InvalidTaxId | undefined {
  const verdict = checkTaxNumber(undefined, value);
  return verdict.verdict === 'invalid' ? invalidOf(verdict, value) : undefined;
}

/** A tax number of a document where it stands: its value, scheme, party role and the document's type and profile. */
export interface DocumentTaxNumber {
  value: string;
  scheme: TaxScheme;
  role: PartyRole;
  documentKind: UblDocumentKind | undefined;
  /** The document's ProfileID, upper-cased; undefined while none is written. */
  profile: string | undefined;
}

/** The verdict on a document's tax number: the scheme's check, GİB's placeholders judged where they stand. */
export function documentNumberVerdict(n: DocumentTaxNumber): TaxNumberVerdict {
  return checkTaxNumber(n.scheme.check, n.value, { documentKind: n.documentKind, role: n.role, profile: n.profile });
}

/** What a document's tax number comes to: undefined when valid, else an error or, for a placeholder where GİB prescribes it, information. */
export function numberFinding(n: DocumentTaxNumber, verdict: TaxNumberVerdict = documentNumberVerdict(n)): FindingFacts | undefined {
  const { profile } = n;
  const base = { taxNumber: n.value, role: n.role, documentKind: n.documentKind, scheme: n.scheme.id };
  switch (verdict.verdict) {
    case 'valid':
      return undefined;
    case 'empty':
      return { ...base, code: FindingCodes.invalidTaxId, severity: 'error', invalid: { kind: n.scheme.check === 'VKN_OR_TCKN' ? undefined : n.scheme.check, problem: 'empty' } };
    case 'invalid':
      return { ...base, code: FindingCodes.invalidTaxId, severity: 'error', invalid: invalidOf(verdict, n.value) };
    case 'placeholder':
      return { ...base, code: FindingCodes.gibPlaceholder, severity: 'information', placeholder: verdict.placeholder, ...(profile ? { profile } : {}) };
    case 'misplacedPlaceholder':
      return { ...base, code: FindingCodes.misplacedGibPlaceholder, severity: 'error', placeholder: verdict.placeholder, misplacement: verdict.reason, ...(profile ? { profile } : {}) };
  }
}

/**
 * The profile rule of a document's type on its receiver (the number `rule.receiverRole` names): a
 * warning when the receiver's registration does not fit the profile; without the rule's registry list
 * (`registries` answers undefined for it), information that says which list is missing. Undefined when
 * the type has no rule, the receiver's number is not valid (an invalid one is already an error, a
 * placeholder stands for a buyer no registry lists), or all is well.
 */
export function profileRuleFinding(type: UblDocumentType, receiver: DocumentTaxNumber, registries: RegistryLookups | undefined): FindingFacts | undefined {
  const rule = type.registryRule;
  if (!rule || documentNumberVerdict(receiver).verdict !== 'valid') return undefined;
  const { profile } = receiver;
  const base = { taxNumber: receiver.value, role: receiver.role, documentKind: type.kind, scheme: receiver.scheme.id };
  const lookup = registries?.(rule.registry);
  if (!lookup) {
    const other: RegistryDocumentType = rule.registry === 'Invoice' ? 'DespatchAdvice' : 'Invoice';
    const code = rule.registry === 'Invoice' ? FindingCodes.registryNotDownloaded : FindingCodes.despatchRegistryNotDownloaded;
    return { ...base, code, severity: 'information', otherListDownloaded: registries?.(other) !== undefined };
  }
  if (!profile) return undefined;
  const { status, title, pkAlias } = registration(lookup(receiver.value));
  const known = { profile, status, title, activePkAlias: pkAlias };
  if (rule.registeredProfiles.has(profile) && status !== 'registered') {
    return { ...base, ...known, code: rule.registry === 'Invoice' ? FindingCodes.notEInvoiceUser : FindingCodes.notEDespatchUser, severity: 'warning' };
  }
  if (rule.unregisteredProfiles.has(profile) && status === 'registered') return { ...base, ...known, code: FindingCodes.eInvoiceUserOnEArchive, severity: 'warning' };
  return undefined;
}

/**
 * Findings of a UBL-TR document: every tax number checked, then the profile rule of its type. Without
 * the rule's registry list (`registries` answers undefined for it), one information finding at the
 * receiver's valid number says which list is missing.
 */
export function documentFindings(scan: UblScan, registries: RegistryLookups | undefined): Finding[] {
  const type = scan.documentType;
  if (!type) return [];
  const profile = scan.profileId?.value.toUpperCase();
  const inDocument = (n: ScannedTaxNumber): DocumentTaxNumber => ({ value: n.value, scheme: n.scheme, role: n.role, documentKind: type.kind, profile });
  const findings: Finding[] = [];
  for (const n of scan.taxNumbers) {
    const finding = numberFinding(inDocument(n));
    if (finding) findings.push({ ...finding, start: n.start, end: n.end });
  }
  // The number the document is sent to, by its type's profile rule: e.g. the customer's VKN/TCKN of an invoice.
  const receiver = scan.taxNumbers.find((n) => n.role === type.registryRule?.receiverRole && !n.empty);
  const rule = receiver && profileRuleFinding(type, inDocument(receiver), registries);
  if (receiver && rule) findings.push({ ...rule, start: receiver.start, end: receiver.end });
  return findings;
}

/** One error per invalid cell of a tax-number column (empty cells and the header row are not checked). */
export function csvFindings(scan: CsvScan): Finding[] {
  const findings: Finding[] = [];
  for (const cell of scan.cells) {
    const invalid = checkNumber(cell.value);
    if (invalid) findings.push({ code: FindingCodes.invalidTaxId, severity: 'error', start: cell.start, end: cell.end, taxNumber: cell.value, invalid });
  }
  return findings;
}

/**
 * A customer list shown with U+FFFD in it: VS Code read a Windows-1254 or Mac Turkish file (what
 * Excel saves as "CSV") as UTF-8 and every Turkish letter was lost. One information finding at the first
 * such character; its quick fixes reopen the file in its encoding or import it (codeActions.ts).
 */
export function encodingFindings(text: string, scan: CsvScan): Finding[] {
  if (scan.columns.length === 0) return [];
  const at = text.indexOf('\uFFFD');
  if (at < 0) return [];
  return [{ code: FindingCodes.notUtf8, severity: 'information', start: at, end: at + 1, taxNumber: '' }];
}

/** The number with the check digit(s) its first nine digits call for, for a checksum failure. */
export function correctedNumber(finding: Pick<FindingFacts, 'taxNumber' | 'invalid'>): string | undefined {
  if (finding.invalid?.gibSample) return undefined; // a sample's number "corrected" would be some real taxpayer's
  const expected = finding.invalid?.problem === 'checksum' ? finding.invalid.expectedCheckDigits : undefined;
  return expected ? finding.taxNumber.slice(0, 9) + expected : undefined;
}
