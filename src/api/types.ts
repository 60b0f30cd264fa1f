// Records and enums of the General API, as they travel on the wire: PascalCase fields, enums as
// their string names. Field lists follow the platform's own OpenAPI export where it has the record
// (test/fixtures/general.swagger.json), else the specification. Records whose fields are not fully known carry an index signature so that fields
// the server sends beyond the known ones are kept, not dropped.

export const ALERT_TYPES = ['Information', 'Warning', 'Error'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export const CERTIFICATE_TYPES = ['MALIMUHUR', 'EIMZA', 'HSM'] as const;
export type CertificateType = (typeof CERTIFICATE_TYPES)[number];

export const DURATION_TYPES = ['Indefinite', 'Year', 'Month'] as const;
export type DurationType = (typeof DURATION_TYPES)[number];

/** MailingSettingResponse.ModuleID; `Portal` is the e-mail feature. */
export const MODULES = ['Portal', 'Sms', 'WhatsApp'] as const;
export type Module = (typeof MODULES)[number];

export const PAYMENT_MEANS_CODES = ['ODEMETIPIMUHTELIF', 'NAKIT', 'CEK', 'BANKACEKI', 'HAVALE_EFT', 'KREDIKARTI_BANKAKARTI'] as const;
export type PaymentMeansCode = (typeof PAYMENT_MEANS_CODES)[number];

export const GLOBAL_USER_TYPES = ['Invoice', 'DespatchAdvice'] as const;
export type GlobalUserType = (typeof GLOBAL_USER_TYPES)[number];

export const ALIAS_TYPES = ['PK', 'GB'] as const;
export type AliasType = (typeof ALIAS_TYPES)[number];

export const SORT_TYPES = ['ASC', 'DESC'] as const;
export type SortType = (typeof SORT_TYPES)[number];

export const COMPANY_IDENTIFICATION_TYPES = [
  'HIZMETNO', 'MUSTERINO', 'TESISATNO', 'TELEFONNO', 'DISTRIBUTORNO', 'TICARETSICILNO', 'TAPDKNO',
  'BAYINO', 'ABONENO', 'SAYACNO', 'EPDKNO', 'SUBENO', 'PASAPORTNO', 'URETICINO', 'ARACIKURUMETIKET',
  'ARACIKURUMVKN', 'CIFTCINO', 'IMALATCINO', 'DOSYANO', 'HASTANO', 'MERSISNO',
] as const;
export type CompanyIdentificationType = (typeof COMPANY_IDENTIFICATION_TYPES)[number];

/** Date-times travel as ISO-8601 strings; the exact server format was never observed. */
export type DateTimeString = string;

/** Every `...Pagination` record: 1-based `Page`, the `PageSize` actually used, totals, items. */
export interface Pagination<T> {
  Page: number;
  PageSize: number;
  TotalCount: number | null;
  TotalPages: number | null;
  Content: T[] | null;
}

export interface AlertResponse {
  ID: number;
  Type: AlertType;
  Message: string | null;
  CreationDate: DateTimeString;
}

export interface CampaignResponse {
  Name: string | null;
  CreatedDate: DateTimeString;
  EndDate: DateTimeString;
  Content: string | null;
  Subject: string | null;
  IsActive: boolean;
  Url: string | null;
}

export interface CreditResponse {
  Name: string | null;
  ModuleID: number;
  TaxNumber: string | null;
  TotalCredit: number;
  UsedCredit: number;
  RemainingCredit: number;
  UsePercentage: number;
  DurationType: DurationType;
  EndDate: DateTimeString;
  IsControl: boolean;
}

/** Rates are strings (Turkish decimal comma, e.g. "38,1234"), not numbers. */
export interface ExchangeRateResponse {
  USDBuy: string | null;
  USDSale: string | null;
  EUROBuy: string | null;
  EUROSale: string | null;
  GBPBuy: string | null;
  GBPSale: string | null;
}

/** `AliasType` and `Type` are integers here (not the string enums); their codes are undocumented. */
export interface CompanyAliases {
  Alias: string | null;
  AliasType: number;
  Type: number;
}

export interface CompanyResponse {
  Name: string | null;
  TaxNumber: string | null;
  TaxOffice: string | null;
  Address: string | null;
  District: string | null;
  City: string | null;
  Country: string | null;
  PostalCode: string | null;
  PhoneNumber: string | null;
  Fax: string | null;
  Email: string | null;
  WebSite: string | null;
  IsActive: boolean | null;
  IsDeleted: boolean | null;
  PayeeFinancialAccountID: string | null;
  PaymentMeansChannelCode: string | null;
  PaymentMeansCode: string | null;
  Aliases: CompanyAliases[] | null;
}

/** PUT /Company body: the record's fields, all optional. Name and TaxNumber are not updatable. */
export interface CompanyResponseCommand
  extends Partial<Omit<CompanyResponse, 'Name' | 'TaxNumber' | 'IsActive' | 'IsDeleted' | 'PaymentMeansCode' | 'Aliases'>> {
  PaymentMeansCode?: PaymentMeansCode;
}

export interface CompanyModulesResponse {
  Name: string | null;
  Description: string | null;
  IsActive: boolean;
  IsActivation: boolean;
}

/**
 * GET /Company/List. The spec says "body shape not shown"; assumed (as the sandbox answers: src/sandbox/seed/generate.ts) to be an array
 * of `{ Name, TaxNumber, IsActive }`; other fields are kept.
 */
export interface CompanyListItem extends Record<string, unknown> {
  Name: string | null;
  TaxNumber: string | null;
  IsActive?: boolean | null;
}

export interface CertificateResponse {
  ID: number;
  SerialNo: string | null;
  TaxNumber: string | null;
  StartDate: DateTimeString | null;
  EndDate: DateTimeString | null;
  Type: CertificateType;
  Password: string | null;
  Description: string | null;
}

export type CreateCompanyCertificateCommand = Pick<CertificateResponse, 'SerialNo' | 'Type'> & Partial<Pick<CertificateResponse, 'StartDate' | 'EndDate' | 'Password' | 'Description'>>;

export type UpdateCompanyCertificateCommand = CreateCompanyCertificateCommand & Pick<CertificateResponse, 'ID'>;

/**
 * Not shown in the spec. Assumed (as the sandbox checks: src/sandbox/routes/companyLists.ts): `{ Name, FileType /* e.g. "pdf" *\/, Base64String }`;
 * the same Name again gives 409; empty or bad base64, or more than 10 MB, gives 422.
 */
export interface CreateCompanyDocumentCommand {
  Name: string;
  FileType: string;
  Base64String: string;
}

/** Not shown in the spec. Assumed: `{ ID, Name, FileType, Size, CreatedDate }`; other fields are kept. */
export interface CompanyDocumentResponse extends Record<string, unknown> {
  ID: number;
  Name?: string | null;
  FileType?: string | null;
  Size?: number | null;
  CreatedDate?: DateTimeString | null;
}

export interface CompanyIdentificationResponse {
  ID: number;
  CompanyID: number;
  /** The CompanyIdentificationType name, as a string. */
  Name: string | null;
  Value: string | null;
}

/** The address and contact fields a customer and a registry company share. */
export interface PartyDetails {
  TaxNumber: string | null;
  TaxDepartment: string | null;
  Address: string | null;
  Country: string | null;
  City: string | null;
  District: string | null;
  PostalCode: string | null;
  Phone: string | null;
  Fax: string | null;
  Email: string | null;
  WebSite: string | null;
}

export interface CustomerResponse extends PartyDetails {
  ID: number;
  Name: string | null;
  IsExport: boolean;
}

/** Not shown in the spec: every CustomerResponse field plus extra ones (CreatedDate, ModifiedDate, ...), all kept. */
export interface CustomerDetailResponse extends CustomerResponse, Record<string, unknown> {
  CreatedDate?: DateTimeString | null;
  ModifiedDate?: DateTimeString | null;
}

/** A customer as POST /Customers takes it: the record without its ID, all but TaxNumber and Name optional. */
export interface CustomerDto extends Partial<Omit<CustomerResponse, 'ID'>> {
  TaxNumber: string | null;
  Name: string | null;
}

export type UpdateCustomerCommand = CustomerDto & Pick<CustomerResponse, 'ID'>;

export interface CustomerListQuery {
  Search?: string;
  PageSize?: number;
  Page?: number;
  SortColumn?: string;
  SortType?: SortType;
}

export interface Alias {
  Name: string | null;
  CreationTime: DateTimeString;
  DeletionTime: DateTimeString | null;
}

export interface GlobalCustomerResponse {
  TaxNumber: string | null;
  Title: string | null;
  AccountType: string | null;
  FirstCreationTime: DateTimeString;
  Type: string | null;
  Aliases: Alias[] | null;
}

export interface SearchGlobalCompanyResponse extends PartyDetails {
  Title: string | null;
  Type: string | null;
  ModuleType: string | null;
}

export interface GlobalCustomerInfoResponse extends SearchGlobalCompanyResponse {
  FirstCreationTime: DateTimeString;
  Aliases: Alias[] | null;
}

/** An entry of the bulk look-up (POST GetGlobalCustomerInfo): the registry record without its address. */
export type GlobalCustomerAliasesResponse = Pick<
  GlobalCustomerInfoResponse,
  'TaxNumber' | 'Title' | 'Type' | 'ModuleType' | 'FirstCreationTime' | 'Aliases'
>;

/** One element per alias; an empty array means "not a registered user". Note `FirstCreatedTime`. */
export interface GlobalCompanyInfoResponse {
  TaxNumber: string | null;
  Title: string | null;
  FirstCreatedTime: DateTimeString;
  CreationTime: DateTimeString;
  DocumentType: string | null;
  /** The alias URN, e.g. urn:mail:defaultpk@firma.com.tr */
  Name: string | null;
  Type: string | null;
}

/** Not shown in the spec. Assumed: `{ UserName, Password }`; other fields are kept. */
export interface InteractiveTaxOfficeUserResponse extends Record<string, unknown> {
  UserName: string | null;
  Password: string | null;
}

export interface MailingSettingResponse {
  ID: number;
  CompanyID: number;
  ModuleID: Module;
  IsActive: boolean;
}

/** Not shown in the spec. Assumed: `{ IsActive }`; the 200 response is `true`. */
export type UpdateInvoiceMailingMailCommand = Pick<MailingSettingResponse, 'IsActive'>;

export interface UpdateTemplateCommand {
  ID: number;
  Name?: string | null;
  IsActive?: boolean | null;
  IsDefault?: boolean | null;
  /** Template file, base64 (seen in the spec's code samples). */
  Base64String?: string | null;
}

export interface UpdateSeriesCommand {
  ID: number;
  IsDefault?: boolean | null;
  IsActive?: boolean | null;
}

/**
 * What each plain read of the table (PlainReadId in src/api/operations.ts: a GET of a fixed path)
 * answers: `client.read(id)` returns it and the sandbox's seed data has this shape. A plain read
 * missing here fails the type check (src/api/plainRead.ts).
 */
export interface OperationAnswers {
  'account.alerts': AlertResponse[];
  'account.campaigns': CampaignResponse[];
  'account.credits': CreditResponse[];
  'account.exchangeRate': ExchangeRateResponse;
  'company.get': CompanyResponse;
  'company.modules': CompanyModulesResponse[];
  'company.list': CompanyListItem[];
  'certificates.list': CertificateResponse[];
  'documents.list': CompanyDocumentResponse[];
  'identifications.list': CompanyIdentificationResponse[];
  'mailing.settings': MailingSettingResponse[];
  'taxOffice.get': InteractiveTaxOfficeUserResponse;
}
