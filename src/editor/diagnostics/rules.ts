// What is wrong in a scanned invoice or CSV: tax-number checksums, and for an invoice the receiver's
// e-invoice registration against its profile. Pure: the registry comes in as a lookup function, the
// wording is in ./messages.
import type { AliasType } from '../../api/types';
import { activeAliases, type OfflineTaxpayer } from '../../registry/offlineLookup';
import { checkTaxId, type TaxIdKind, type TaxIdProblem } from '../../domain/taxId';
import type { CsvScan } from './csvScan';
import type { ScannedPartyId, UblScan } from './ublScan';

/**
 * UBL-TR ProfileID values of the e-Fatura (e-invoice) scenarios, sent only to registered e-invoice
 * users. Source: GİB "UBL-TR Kod Listeleri" (ProfileID / senaryo list) and the e-Fatura scenario
 * guide: TEMELFATURA, TICARIFATURA, IHRACAT, YOLCUBERABERFATURA, HKS, KAMU, ENERJI,
 * ILAC_TIBBICIHAZ, YATIRIMTESVIK, IDIS, OZELFATURA. EARSIVFATURA is the e-Arşiv profile, for
 * receivers that are not e-invoice users. Other values (a typo, a new profile) get no registry rule.
 */
export const E_INVOICE_PROFILES: ReadonlySet<string> = new Set([
  'TEMELFATURA',
  'TICARIFATURA',
  'IHRACAT',
  'YOLCUBERABERFATURA',
  'HKS',
  'KAMU',
  'ENERJI',
  'ILAC_TIBBICIHAZ',
  'YATIRIMTESVIK',
  'IDIS',
  'OZELFATURA',
]);
export const E_ARCHIVE_PROFILE = 'EARSIVFATURA';

export const FindingCodes = {
  invalidTaxId: 'invalid-tax-id',
  notEInvoiceUser: 'not-e-invoice-user',
  eInvoiceUserOnEArchive: 'e-invoice-user-on-e-archive',
  registryNotDownloaded: 'registry-not-downloaded',
  notUtf8: 'not-utf8',
} as const;
export type FindingCode = (typeof FindingCodes)[keyof typeof FindingCodes];

export type FindingSeverity = 'error' | 'warning' | 'information';

/** Registered: an active alias in the Invoice lists; deregistered: listed, every alias deleted. */
export type RegistryStatus = 'registered' | 'deregistered' | 'notRegistered';

export interface InvalidTaxId {
  /** What the number was declared or read as (schemeID, or its length); undefined when neither says. */
  kind: TaxIdKind | undefined;
  problem: TaxIdProblem;
  /** For a checksum failure: the check digit(s) the first nine digits call for. */
  expectedCheckDigits?: string;
}

export interface Finding {
  code: FindingCode;
  severity: FindingSeverity;
  start: number;
  end: number;
  taxNumber: string;
  invalid?: InvalidTaxId;
  profile?: string;
  status?: RegistryStatus;
  title?: string;
  /** The receiver's first active PK (receiving) alias, when the index has one. */
  activePkAlias?: string;
}

export type RegistryLookup = (taxNumber: string) => OfflineTaxpayer | undefined;

export function registryStatus(taxpayer: OfflineTaxpayer | undefined): RegistryStatus {
  if (!taxpayer) return 'notRegistered';
  return activeAliases(taxpayer).length > 0 ? 'registered' : 'deregistered';
}

function firstActiveAlias(taxpayer: OfflineTaxpayer | undefined, kind: AliasType): string | undefined {
  return taxpayer ? activeAliases(taxpayer, kind)[0]?.name : undefined;
}

/** Checks a number; `declared` (an invoice's schemeID) fixes the kind, so an 11-digit "VKN" is a length error. */
export function checkNumber(value: string, declared?: TaxIdKind): InvalidTaxId | undefined {
  const check = checkTaxId(value);
  if (declared) {
    const digitsOnly = /^\d+$/.test(value);
    if (digitsOnly && value.length !== (declared === 'VKN' ? 10 : 11)) return { kind: declared, problem: 'length' };
  }
  if (check.valid) return undefined;
  return { kind: declared ?? check.kind, problem: check.problem, ...(check.expectedCheckDigits ? { expectedCheckDigits: check.expectedCheckDigits } : {}) };
}

/** The receiver's identifier: the first VKN/TCKN of AccountingCustomerParty. */
export function receiverId(scan: UblScan): ScannedPartyId | undefined {
  return scan.partyIds.find((p) => p.role === 'customer');
}

/**
 * Findings of an invoice. `registry` is undefined when no offline index exists: then one
 * information finding at the receiver's (valid) identifier says the status was not checked.
 */
export function invoiceFindings(scan: UblScan, registry: RegistryLookup | undefined): Finding[] {
  if (!scan.isInvoice) return [];
  const findings: Finding[] = [];
  for (const id of scan.partyIds) {
    const invalid = checkNumber(id.value, id.scheme);
    if (invalid) findings.push({ code: FindingCodes.invalidTaxId, severity: 'error', start: id.start, end: id.end, taxNumber: id.value, invalid });
  }
  const receiver = receiverId(scan);
  if (!receiver || checkNumber(receiver.value, receiver.scheme)) return findings;
  const base = { start: receiver.start, end: receiver.end, taxNumber: receiver.value };
  if (!registry) {
    findings.push({ ...base, code: FindingCodes.registryNotDownloaded, severity: 'information' });
    return findings;
  }
  const profile = scan.profileId?.value.toUpperCase();
  if (!profile) return findings;
  const taxpayer = registry(receiver.value);
  const status = registryStatus(taxpayer);
  const known = { profile, status, title: taxpayer?.title, activePkAlias: firstActiveAlias(taxpayer, 'PK') };
  if (E_INVOICE_PROFILES.has(profile) && status !== 'registered') findings.push({ ...base, ...known, code: FindingCodes.notEInvoiceUser, severity: 'warning' });
  if (profile === E_ARCHIVE_PROFILE && status === 'registered') findings.push({ ...base, ...known, code: FindingCodes.eInvoiceUserOnEArchive, severity: 'warning' });
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
export function correctedNumber(finding: Finding): string | undefined {
  const expected = finding.invalid?.problem === 'checksum' ? finding.invalid.expectedCheckDigits : undefined;
  return expected ? finding.taxNumber.slice(0, 9) + expected : undefined;
}
