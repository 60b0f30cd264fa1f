// Record shapes held by the sandbox (PascalCase, as the service sends them): the client's types
// where the sandbox keeps a record as it answers it.
import type { CertificateResponse, CompanyIdentificationResponse, CompanyResponse, MailingSettingResponse } from '../api/types';

/** Fields PUT /Company may change (Name and TaxNumber are not among them). */
export const COMPANY_UPDATABLE = [
  'TaxOffice', 'Address', 'District', 'City', 'Country', 'PostalCode', 'PhoneNumber', 'Fax', 'Email', 'WebSite',
  'PayeeFinancialAccountID', 'PaymentMeansChannelCode',
] as const;

export interface DocumentRecord {
  ID: number;
  Name: string;
  FileType: string;
  Size: number;
  CreatedDate: string;
  /** Kept for persistence; not part of the response. */
  Base64String: string;
}

export const CUSTOMER_STRING_FIELDS = [
  'TaxNumber', 'Name', 'TaxDepartment', 'Address', 'Country', 'City', 'District', 'PostalCode', 'Phone', 'Fax', 'Email', 'WebSite',
] as const;

export type CustomerFields = Record<(typeof CUSTOMER_STRING_FIELDS)[number], string | null> & { IsExport: boolean };

export interface CustomerRecord extends CustomerFields {
  ID: number;
  CreatedDate: string;
  ModifiedDate: string;
}

export interface SeriesRecord {
  ID: number;
  Name: string;
  IsActive: boolean;
  IsDefault: boolean;
}

export interface TemplateRecord extends SeriesRecord {
  /** Length of the last uploaded template file, in bytes (the file itself is not kept). */
  FileSize: number;
  /** SHA-256 (hex) of the last uploaded file, so tests can tell which file arrived; absent before an upload. */
  FileSha256?: string;
}

/** Everything mutable except customers and the registry (those have their own stores). */
export interface MutableState {
  company: CompanyResponse;
  certificates: CertificateResponse[];
  documents: DocumentRecord[];
  identifications: CompanyIdentificationResponse[];
  mailing: MailingSettingResponse[];
  taxOffice: { UserName: string; Password: string };
  templates: TemplateRecord[];
  series: SeriesRecord[];
  nextIds: Record<'certificate' | 'document' | 'identification', number>;
}
