// The structured view's model: what the host reads from a UBL-TR document and the webview only shows.
// Plain data (it crosses postMessage): amounts are kept as the document writes them; what is said about
// a tax number is the editor's finding there, in its words.
import type { TaxIdKind } from '../../domain/taxId';
import type { PartyRole, UblDocumentKind } from '../../domain/ubl/documentTypes';
import type { TaxNumberVerdict } from '../../domain/ubl/taxSchemes';
import type { FindingFacts, FindingSeverity } from '../../editor/diagnostics/rules';

export interface Amount {
  /** The value as written (trimmed). */
  value: string;
  currency?: string;
  /** False when the text is not a decimal number. */
  numeric: boolean;
}

/** Registry status of a valid tax number, from the downloaded list of the document's user type. */
export type PartyRegistry =
  | { status: 'noList' }
  | { status: 'registered' | 'deregistered'; title: string; pkAlias?: string; listDate: string }
  | { status: 'notRegistered'; listDate: string };

/** One of the editor's findings at a number (its diagnostic): the same code, severity and message. */
export type NumberFinding = Pick<FindingFacts, 'code' | 'severity'> & { message: string };

export interface PartyIdentification {
  /** The schemeID as written ('' when there is none). */
  scheme: string;
  value: string;
  /**
   * Set when the element holds a tax number (its scheme is one of the tax schemes, or its place says so,
   * as a driver's NationalityID): the party role it is checked for and the check's verdict.
   */
  taxNumber?: { role: PartyRole; verdict: TaxNumberVerdict['verdict']; kind?: TaxIdKind };
  /** What the editor reports at this number, in its order: the number's own check, then the profile rule on the receiver. */
  findings: NumberFinding[];
  registry?: PartyRegistry;
}

/** A party: the element holding its identifications (a cac:Party, a DriverPerson, a Signature…) and what it says about itself. */
export interface PartyView {
  role: PartyRole;
  /** The element it came from (AccountingSupplierParty for its cac:Party, CarrierParty, DriverPerson…). */
  element: string;
  name?: string;
  identifications: PartyIdentification[];
  address?: string;
  taxOffice?: string;
  contact?: string;
}

export interface TaxLine {
  name?: string;
  code?: string;
  percent?: string;
  taxable?: Amount;
  amount?: Amount;
  exemption?: string;
}

export interface LineView {
  id?: string;
  name?: string;
  quantity?: string;
  unit?: string;
  price?: Amount;
  amount?: Amount;
  taxes: TaxLine[];
  withholdings: TaxLine[];
  /** Tax numbers written in the line (the owner of the goods on an HKS line, a delivery party…). */
  identifications: PartyIdentification[];
}

export interface TaxTotalView {
  total?: Amount;
  subtotals: TaxLine[];
}

/** The amounts of a LegalMonetaryTotal, in the order they are shown. */
export const TOTAL_KEYS = ['LineExtensionAmount', 'AllowanceTotalAmount', 'ChargeTotalAmount', 'TaxExclusiveAmount', 'TaxInclusiveAmount', 'PrepaidAmount', 'PayableRoundingAmount', 'PayableAmount'] as const;
export type TotalKey = (typeof TOTAL_KEYS)[number];

export type CheckId = 'lines' | 'taxSubtotals' | 'withholdingSubtotals' | 'taxExclusive' | 'taxInclusive' | 'payable';

/** One arithmetic check of the totals: `stated` is what the document says, `computed` what its parts add up to. */
export interface TotalsCheck {
  id: CheckId;
  /** For the tax checks: which TaxTotal / WithholdingTaxTotal (0-based). */
  index?: number;
  /** The total it checks (marked in the totals table when it does not add up). */
  total?: TotalKey;
  ok: boolean;
  stated: string;
  computed: string;
  difference: string;
  currency?: string;
}

export interface DocumentResponseView {
  code?: string;
  description?: string;
  referenceId?: string;
}

export interface StructuredModel {
  kind: UblDocumentKind;
  profile?: string;
  typeCode?: string;
  id?: string;
  uuid?: string;
  issueDate?: string;
  issueTime?: string;
  currency?: string;
  notes: string[];
  /** Other documents it refers to (despatch, order, invoice…): type and ID. */
  references: Array<{ type: string; id: string }>;
  parties: PartyView[];
  lines: LineView[];
  lineCount: number;
  /** Findings at tax numbers in the lines left out of `lines` (maxLines), by severity. */
  findingsInLinesNotShown: Partial<Record<FindingSeverity, number>>;
  taxes: TaxTotalView[];
  withholdings: TaxTotalView[];
  totals: Array<{ key: TotalKey; amount: Amount }>;
  checks: TotalsCheck[];
  responses: DocumentResponseView[];
  /** Plates of the vehicles (despatch advice). */
  vehicles: string[];
  /** The design embedded in the document, if any (its text is sent to the page separately). */
  design?: { name?: string; bytes: number };
}

export type ReadResult =
  | { ok: true; model: StructuredModel }
  | { ok: false; reason: 'notWellFormed'; message: string; line: number; column: number }
  | { ok: false; reason: 'notUbl'; root: string; namespace: string };
