// Record shapes held by the sandbox (PascalCase, as the service sends them).

export const CERTIFICATE_TYPES = ['MALIMUHUR', 'EIMZA', 'HSM'] as const;
export const IDENTIFICATION_TYPES = [
  'HIZMETNO', 'MUSTERINO', 'TESISATNO', 'TELEFONNO', 'DISTRIBUTORNO', 'TICARETSICILNO', 'TAPDKNO', 'BAYINO', 'ABONENO',
  'SAYACNO', 'EPDKNO', 'SUBENO', 'PASAPORTNO', 'URETICINO', 'ARACIKURUMETIKET', 'ARACIKURUMVKN', 'CIFTCINO', 'IMALATCINO',
  'DOSYANO', 'HASTANO', 'MERSISNO',
] as const;
export const PAYMENT_MEANS_CODES = ['ODEMETIPIMUHTELIF', 'NAKIT', 'CEK', 'BANKACEKI', 'HAVALE_EFT', 'KREDIKARTI_BANKAKARTI'] as const;
export const SORT_TYPES = ['ASC', 'DESC'] as const;
export const GLOBAL_USER_TYPES = ['Invoice', 'DespatchAdvice'] as const;
export const ALIAS_TYPES = ['PK', 'GB'] as const;

/** Fields PUT /Company may change (Name and TaxNumber are not among them). */
export const COMPANY_UPDATABLE = [
  'TaxOffice', 'Address', 'District', 'City', 'Country', 'PostalCode', 'PhoneNumber', 'Fax', 'Email', 'WebSite',
  'PayeeFinancialAccountID', 'PaymentMeansChannelCode',
] as const;

type CompanyText = 'Name' | 'TaxNumber' | 'PaymentMeansCode' | (typeof COMPANY_UPDATABLE)[number];
export type CompanyRecord = Record<CompanyText, string | null> & {
  IsActive: boolean | null;
  IsDeleted: boolean | null;
  Aliases: Array<{ Alias: string; AliasType: number; Type: number }>;
};

export interface CertificateRecord {
  ID: number;
  SerialNo: string | null;
  TaxNumber: string | null;
  StartDate: string | null;
  EndDate: string | null;
  Type: string;
  Password: string | null;
  Description: string | null;
}

export interface DocumentRecord {
  ID: number;
  Name: string;
  FileType: string;
  Size: number;
  CreatedDate: string;
  /** Kept for persistence; not part of the response. */
  Base64String: string;
}

export interface IdentificationRecord {
  ID: number;
  CompanyID: number;
  Name: string;
  Value: string;
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

export interface MailingSettingRecord {
  ID: number;
  CompanyID: number;
  ModuleID: 'Portal' | 'Sms' | 'WhatsApp';
  IsActive: boolean;
}

/** Everything mutable except customers and the registry (those have their own stores). */
export interface MutableState {
  company: CompanyRecord;
  certificates: CertificateRecord[];
  documents: DocumentRecord[];
  identifications: IdentificationRecord[];
  mailing: MailingSettingRecord[];
  taxOffice: { UserName: string; Password: string };
  templates: TemplateRecord[];
  series: SeriesRecord[];
  nextIds: Record<'certificate' | 'document' | 'identification', number>;
}
