// Customers with cached views, so 100,000 customers page quickly: each sort order is computed once
// and then kept up to date on every change (binary-search insert/remove); searched views are
// filtered from the sorted order, cached, and dropped on any change.
import { CUSTOMER_STRING_FIELDS, type CustomerFields, type CustomerRecord } from './records';
import { foldTurkish } from '../registry/fold';
import { nowString } from './seed/dates';

export type SortDirection = 'ASC' | 'DESC';

/** Columns a list may be sorted by: every CustomerResponse field. */
export const SORTABLE_COLUMNS: readonly string[] = ['ID', ...CUSTOMER_STRING_FIELDS, 'IsExport'];

const collator = new Intl.Collator('tr', { sensitivity: 'base', numeric: false });
const MAX_CACHED_VIEWS = 32;

export interface CustomerQuery {
  search?: string;
  /** A SORTABLE_COLUMNS entry in its declared case; ID when absent. */
  sortColumn?: string;
  sortType?: SortDirection;
}

export class CustomerStore {
  private readonly byId = new Map<number, CustomerRecord>();
  /** Several only where the service is made to accept a tax number twice (duplicateStatus `accept`), in ID order. */
  private readonly idsByTaxNumber = new Map<string, number[]>();
  private readonly searchKeys = new Map<number, string>();
  /** Unfiltered orders by "column\0direction", patched in place on changes. */
  private readonly sorted = new Map<string, { rows: CustomerRecord[]; compare: (a: CustomerRecord, b: CustomerRecord) => number }>();
  /** Searched views, dropped on every change. */
  private readonly views = new Map<string, CustomerRecord[]>();
  private nextId = 1;

  /** `nextId`: the next new customer's ID when above every record's (deleted customers' IDs are not reused). */
  constructor(records: Iterable<CustomerRecord> = [], nextId = 1) {
    for (const r of records) this.put(r);
    this.nextId = Math.max(this.nextId, nextId);
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: number): CustomerRecord | undefined {
    return this.byId.get(id);
  }

  /** The customer with this tax number (the first stored, when there are several). */
  getByTaxNumber(taxNumber: string): CustomerRecord | undefined {
    const id = this.idsByTaxNumber.get(taxNumber)?.[0];
    return id === undefined ? undefined : this.byId.get(id);
  }

  /** The filtered, sorted view for a query (cached until the next change). */
  view(q: CustomerQuery): readonly CustomerRecord[] {
    const needle = foldTurkish((q.search ?? '').trim());
    const base = this.sortedRows(q.sortColumn ?? 'ID', q.sortType ?? 'ASC');
    if (!needle) return base;
    const key = `${needle}\u0000${q.sortColumn ?? 'ID'}\u0000${q.sortType ?? 'ASC'}`;
    const cached = this.views.get(key);
    if (cached) {
      // Move to the end: the map's insertion order doubles as least-recently-used order.
      this.views.delete(key);
      this.views.set(key, cached);
      return cached;
    }
    const rows = base.filter((r) => this.searchKeys.get(r.ID)!.includes(needle));
    this.views.set(key, rows);
    if (this.views.size > MAX_CACHED_VIEWS) this.views.delete(this.views.keys().next().value as string);
    return rows;
  }

  create(fields: CustomerFields[]): CustomerRecord[] {
    const now = nowString();
    const created = fields.map((f) => this.put({ ...f, ID: this.nextId, CreatedDate: now, ModifiedDate: now }));
    for (const r of created) this.insertSorted(r);
    this.views.clear();
    return created;
  }

  update(id: number, fields: CustomerFields): CustomerRecord | undefined {
    const old = this.byId.get(id);
    if (!old) return undefined;
    this.forgetTaxNumber(old);
    this.removeSorted(old);
    const next = this.put({ ...fields, ID: id, CreatedDate: old.CreatedDate, ModifiedDate: nowString() });
    this.insertSorted(next);
    this.views.clear();
    return next;
  }

  delete(ids: readonly number[]): void {
    for (const id of ids) {
      const old = this.byId.get(id);
      if (!old) continue;
      this.removeSorted(old);
      this.byId.delete(id);
      this.searchKeys.delete(id);
      this.forgetTaxNumber(old);
    }
    this.views.clear();
  }

  all(): IterableIterator<CustomerRecord> {
    return this.byId.values();
  }

  nextIdValue(): number {
    return this.nextId;
  }

  private put(r: CustomerRecord): CustomerRecord {
    this.byId.set(r.ID, r);
    if (r.TaxNumber) {
      const ids = this.idsByTaxNumber.get(r.TaxNumber) ?? [];
      const at = ids.findIndex((id) => id >= r.ID);
      if (ids[at] !== r.ID) ids.splice(at < 0 ? ids.length : at, 0, r.ID);
      this.idsByTaxNumber.set(r.TaxNumber, ids);
    }
    this.searchKeys.set(r.ID, foldTurkish([r.Name, r.TaxNumber, r.City, r.Email].filter(Boolean).join('\u0001')));
    if (r.ID >= this.nextId) this.nextId = r.ID + 1;
    return r;
  }

  private forgetTaxNumber(r: CustomerRecord): void {
    if (!r.TaxNumber) return;
    const ids = (this.idsByTaxNumber.get(r.TaxNumber) ?? []).filter((id) => id !== r.ID);
    if (ids.length) this.idsByTaxNumber.set(r.TaxNumber, ids);
    else this.idsByTaxNumber.delete(r.TaxNumber);
  }

  private sortedRows(column: string, dir: SortDirection): CustomerRecord[] {
    const key = `${column}\u0000${dir}`;
    let entry = this.sorted.get(key);
    if (!entry) {
      const compare = comparator(column, dir);
      entry = { rows: [...this.byId.values()].sort(compare), compare };
      this.sorted.set(key, entry);
    }
    return entry.rows;
  }

  private insertSorted(r: CustomerRecord): void {
    for (const { rows, compare } of this.sorted.values()) rows.splice(lowerBound(rows, r, compare), 0, r);
  }

  /** Removes r from the orders (before replacing it); ties break by ID, so lowerBound finds r itself. */
  private removeSorted(r: CustomerRecord): void {
    for (const { rows, compare } of this.sorted.values()) rows.splice(lowerBound(rows, r, compare), 1);
  }
}

/** First index whose row does not sort before r. */
function lowerBound(rows: readonly CustomerRecord[], r: CustomerRecord, compare: (a: CustomerRecord, b: CustomerRecord) => number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(rows[mid], r) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Sort by one column (Turkish collation for text, nulls first), ties broken by ID ascending. */
export function comparator(column: string, dir: SortDirection): (a: CustomerRecord, b: CustomerRecord) => number {
  const sign = dir === 'DESC' ? -1 : 1;
  const key = column as keyof CustomerRecord;
  return (a, b) => {
    const x = a[key];
    const y = b[key];
    let c: number;
    if (typeof x === 'number' && typeof y === 'number') c = x - y;
    else if (typeof x === 'boolean' || typeof y === 'boolean') c = Number(x) - Number(y);
    else if (x == null || y == null) c = x == null ? (y == null ? 0 : -1) : 1;
    else c = collator.compare(String(x), String(y));
    return c !== 0 ? c * sign : a.ID - b.ID;
  };
}
