// One taxpayer as the detail view shows it, whichever source it came from: the online lookup
// (GetGlobalCustomerInfo), the check rows (Check/TaxNumber, one row per alias) or the offline index.
import type { CustomerDto, GlobalCompanyInfoResponse, GlobalCustomerAliasesResponse, GlobalCustomerInfoResponse } from '../../api/types';
import type { Taxpayer } from '../../domain/registryXml';
import { aliasKind, type AliasKind } from '../../domain/aliasKind';

export interface DetailAlias {
  name: string;
  /** PK (posta kutusu, receiving) or GB (gönderici birim, sending); undefined when it cannot be told. */
  kind?: AliasKind;
  document?: string;
  created?: string;
  deleted?: string;
}

export interface RegistryDetail {
  taxNumber: string;
  title: string;
  type?: string;
  accountType?: string;
  firstCreation?: string;
  /** Address and contact fields (online lookups only), by their API names. */
  fields: Record<string, string>;
  aliases: DetailAlias[];
  source: 'online' | 'offline';
  /** Offline: when the list was downloaded (ISO time). */
  downloadedAt?: string;
}

const CONTACT_FIELDS = ['TaxDepartment', 'Address', 'District', 'City', 'Country', 'PostalCode', 'Phone', 'Fax', 'Email', 'WebSite', 'ModuleType'] as const;

/** From GetGlobalCustomerInfo: the single look-up's record, or a bulk look-up's entry (no address). */
export function detailFromInfo(info: GlobalCustomerAliasesResponse & Partial<GlobalCustomerInfoResponse>): RegistryDetail {
  const fields: Record<string, string> = {};
  for (const f of CONTACT_FIELDS) {
    const v = info[f];
    if (typeof v === 'string' && v.trim()) fields[f] = v;
  }
  return {
    taxNumber: info.TaxNumber ?? '',
    title: info.Title ?? '',
    type: info.Type ?? undefined,
    firstCreation: info.FirstCreationTime ?? undefined,
    fields,
    aliases: (info.Aliases ?? []).map((a) => ({
      name: a.Name ?? '',
      kind: aliasKind(a.Name ?? ''),
      created: a.CreationTime ?? undefined,
      deleted: a.DeletionTime ?? undefined,
    })),
    source: 'online',
  };
}

/** Check/TaxNumber answers one row per alias; rows carry no deletion time, so they are current aliases. */
export function detailFromCheckRows(rows: GlobalCompanyInfoResponse[]): RegistryDetail {
  const first = rows[0];
  return {
    taxNumber: first.TaxNumber ?? '',
    title: first.Title ?? '',
    type: first.Type ?? undefined,
    firstCreation: first.FirstCreatedTime ?? undefined,
    fields: {},
    aliases: rows.map((r) => ({ name: r.Name ?? '', kind: aliasKind(r.Name ?? ''), document: r.DocumentType ?? undefined, created: r.CreationTime ?? undefined })),
    source: 'online',
  };
}

/** From the offline index: the list's alias type is known for every alias in it. */
export function detailFromTaxpayer(t: Taxpayer, listAliasType: string, downloadedAt: string): RegistryDetail {
  const kind = listAliasType === 'PK' || listAliasType === 'GB' ? listAliasType : undefined;
  return {
    taxNumber: t.Identifier,
    title: t.Title,
    type: t.Type || undefined,
    accountType: t.AccountType || undefined,
    firstCreation: t.FirstCreationTime || undefined,
    fields: {},
    aliases: t.Documents.flatMap((d) => d.aliases.map((a) => ({ name: a.Name, kind: kind ?? aliasKind(a.Name), document: d.type, created: a.CreationTime, deleted: a.DeletionTime }))),
    source: 'offline',
    downloadedAt,
  };
}

export function activeAliases(detail: RegistryDetail, kind: AliasKind): string[] {
  return detail.aliases.filter((a) => a.kind === kind && !a.deleted).map((a) => a.name);
}

/** A customer record prefilled from the registry (the form or the direct create completes it). */
export function customerPrefill(detail: RegistryDetail): CustomerDto {
  const dto: CustomerDto = { TaxNumber: detail.taxNumber, Name: detail.title };
  // Every contact field but ModuleType is a customer field of the same name.
  for (const f of CONTACT_FIELDS) if (f !== 'ModuleType' && detail.fields[f]) dto[f] = detail.fields[f];
  return dto;
}
