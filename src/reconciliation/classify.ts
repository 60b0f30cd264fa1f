// Pure: one customer plus what the registry says about its tax number → its reconciliation status.
// "Registered" = in the Invoice lists with at least one active alias; "deregistered" = in the list
// with every alias deleted; "not registered" = not in the list.
import type { CustomerResponse, GlobalCustomerAliasesResponse } from '../api/types';
import { aliasKind } from '../domain/aliasKind';
import { checkTaxId, type TaxIdCheck } from '../domain/taxId';
import { activeAliases, type OfflineTaxpayer } from '../registry/offlineLookup';

export type ReconStatus = 'user' | 'notUser' | 'invalid' | 'unchecked';

/** What a checksum says about a number that fails it. */
export type InvalidReason = Omit<Extract<TaxIdCheck, { valid: false }>, 'valid' | 'value'>;

export type CustomerRef = Pick<CustomerResponse, 'ID' | 'TaxNumber' | 'Name'>;

export interface ReconRow {
  customerId: number;
  taxNumber: string;
  name: string;
  status: ReconStatus;
  /** The active PK (receiving) alias of an e-invoice user. */
  pkAlias?: string;
  /** Registry title (users), when the registry has one. */
  title?: string;
  /** A non-user that is in the list with every alias deleted. */
  deregistered?: boolean;
  reason?: InvalidReason;
}

/** The checksum verdict; undefined when the tax number is valid. */
export function invalidReason(taxNumber: string): InvalidReason | undefined {
  const { valid, value: _value, ...reason } = checkTaxId(taxNumber);
  return valid ? undefined : (reason as InvalidReason);
}

function base(c: CustomerRef): Pick<ReconRow, 'customerId' | 'taxNumber' | 'name'> {
  return { customerId: c.ID, taxNumber: (c.TaxNumber ?? '').trim(), name: c.Name ?? '' };
}

/** A customer whose tax number fails the checksum, or undefined when it needs a registry answer. */
export function classifyChecksum(c: CustomerRef): ReconRow | undefined {
  const row = base(c);
  const reason = invalidReason(row.taxNumber);
  return reason ? { ...row, status: 'invalid', reason } : undefined;
}

/** The checksum's verdict, else the registry's: unknown, every alias deleted, or a user (its PK alias and title). */
function classify(c: CustomerRef, reg: { active: number; pk?: string; title?: string | null } | undefined): ReconRow {
  const invalid = classifyChecksum(c);
  if (invalid) return invalid;
  const row = base(c);
  if (!reg) return { ...row, status: 'notUser' };
  if (reg.active === 0) return { ...row, status: 'notUser', deregistered: true };
  return { ...row, status: 'user', ...(reg.title ? { title: reg.title } : {}), ...(reg.pk ? { pkAlias: reg.pk } : {}) };
}

/** Against the offline index (PK and GB lists of the Invoice user type, merged). */
export function classifyOffline(c: CustomerRef, taxpayer: OfflineTaxpayer | undefined): ReconRow {
  const pk = taxpayer && activeAliases(taxpayer, 'PK')[0]?.name;
  return classify(c, taxpayer && { active: activeAliases(taxpayer).length, pk, title: taxpayer.title });
}

/** The receiving alias of a bulk answer's unlabelled ones (src/domain/aliasKind.ts): a PK, else any not a GB. */
export function pickPkAlias(names: readonly string[]): string | undefined {
  return names.find((n) => aliasKind(n) === 'PK') ?? names.find((n) => aliasKind(n) !== 'GB');
}

/** Against an online bulk answer (undefined: the registry does not know the number). */
export function classifyOnline(c: CustomerRef, answer: GlobalCustomerAliasesResponse | undefined): ReconRow {
  const active = (answer?.Aliases ?? []).filter((a) => !a.DeletionTime && a.Name).map((a) => a.Name as string);
  return classify(c, answer && { active: active.length, pk: pickPkAlias(active), title: answer.Title });
}

/** A valid number whose online lookup failed: neither user nor non-user, and not a change. */
export function unchecked(c: CustomerRef): ReconRow {
  return { ...base(c), status: 'unchecked' };
}
