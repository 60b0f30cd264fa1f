// The structured view's model: what the host reads from a UBL-TR document and the webview only shows.
// Plain data (it crosses postMessage): amounts are kept as the document writes them.
import type { DocumentKind } from './documentTypes';
import type { PartyIdVerdict } from './partyCheck';

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

export interface PartyIdentification {
  scheme: string;
  value: string;
  verdict: PartyIdVerdict;
  registry?: PartyRegistry;
}

/** A party's role: the element it came from (AccountingSupplierParty, CarrierParty, DriverPerson…). */
export interface PartyView {
  role: string;
  name?: string;
  identifications: PartyIdentification[];
  address?: string;
  taxOffice?: string;
  contact?: string;
  /** Set on the receiver when its registry status does not fit the profile. */
  profileMismatch?: 'eArchiveExpected' | 'eInvoiceUserOnEArchive';
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
  allowances?: Amount;
  charges?: Amount;
  taxes: TaxLine[];
  withholdings: TaxLine[];
}

export interface TaxTotalView {
  total?: Amount;
  subtotals: TaxLine[];
}

export type TotalKey =
  | 'LineExtensionAmount'
  | 'AllowanceTotalAmount'
  | 'ChargeTotalAmount'
  | 'TaxExclusiveAmount'
  | 'TaxInclusiveAmount'
  | 'PrepaidAmount'
  | 'PayableRoundingAmount'
  | 'PayableAmount';

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
  kind: DocumentKind;
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
