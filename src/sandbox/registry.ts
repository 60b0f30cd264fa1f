// The generated taxpayer registry. Entry i is derived from (seed, i) on demand, and a tax number
// maps back to its index (an affine bijection on nine-digit prefixes), so 1.5 million taxpayers
// cost no memory beyond the few entries changed at run time (overrides).
import type { AliasType, GlobalUserType, PartyDetails } from '../api/types';
import { completeTckn, completeVkn } from '../domain/taxId';
import { hash3, pickBy } from './seed/prng';
import { formatDate } from './seed/dates';
import { foldTurkish } from '../registry/fold';
import { CITIES, DOMAINS, STREETS, TRICKY_TITLES, slugOfFirstWord } from './seed/names';
import { realisticTitle, type GeneratedTitle } from './seed/titleWords';

export interface RegistryAlias {
  Name: string;
  CreationTime: string;
  DeletionTime: string | null;
  kind: AliasType;
  document: GlobalUserType;
}

/** A taxpayer: the party fields of the API's answers (src/api/types.ts), all filled, and its aliases. */
export type RegistryEntry = Record<keyof PartyDetails | 'Title' | 'AccountType' | 'FirstCreationTime', string> & {
  /** 'Özel' (private) or 'Kamu' (public sector). */
  Type: string;
  aliases: RegistryAlias[];
};

export type RegistryAction =
  | { action: 'register'; TaxNumber: string; Title?: string }
  | { action: 'deregister'; TaxNumber: string }
  | { action: 'changeAlias'; TaxNumber: string; AliasType?: AliasType; DocumentType?: GlobalUserType; Alias: string };

export interface RegistryOverrides {
  deregistered: number[];
  /** Entries replaced or added at run time, by tax number. */
  entries: RegistryEntry[];
}

const MOD = 1_000_000_000;
const MULT = 387_420_489; // 3^18: coprime to 10^9, so i -> (MULT*i + offset) mod 10^9 is a bijection.
const MULT_INV = Number(modInverse(BigInt(MULT), BigInt(MOD)));
/** Keeps MULT * index below 2^53 so the forward map stays exact in doubles. */
export const MAX_REGISTRY = 20_000_000;
const EPOCH = Date.UTC(2014, 2, 1);

function modInverse(a: bigint, m: bigint): bigint {
  let [oldR, r] = [a, m];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  return ((oldS % m) + m) % m;
}

const dayCache = new Map<number, string>();

/** 'YYYY-MM-DD' of a day counted from EPOCH (memoised: registry dates span a few thousand days). */
function dayText(day: number): string {
  let text = dayCache.get(day);
  if (text === undefined) {
    text = formatDate(new Date(EPOCH + day * 86_400_000)).slice(0, 10);
    dayCache.set(day, text);
  }
  return text;
}

function clockTime(secondOfDay: number): string {
  const two = (n: number) => (n < 10 ? '0' : '') + n;
  return `${two(Math.floor(secondOfDay / 3600))}:${two(Math.floor(secondOfDay / 60) % 60)}:${two(secondOfDay % 60)}`;
}

export class Registry {
  readonly size: number;
  private readonly offset: number;
  private readonly deregistered = new Set<number>();
  private sortedDeregistered: number[] | undefined = [];
  private readonly replaced = new Map<string, RegistryEntry>();
  /** Registered at run time with a tax number outside the generated range (listed after it). */
  private readonly extras = new Map<string, RegistryEntry>();
  private changes = 0;

  constructor(private readonly seed: number, size: number) {
    if (!Number.isInteger(size) || size < 0 || size > MAX_REGISTRY) throw new RangeError(`registry size must be 0..${MAX_REGISTRY}`);
    this.size = size;
    this.offset = hash3(seed, 0, 99) % MOD;
  }

  /** The tax number of generated entry i (without looking at overrides). */
  taxNumberAt(i: number): string {
    const nine = String((MULT * i + this.offset) % MOD).padStart(9, '0');
    return this.isPersonAt(i) ? completeTckn(nine) : completeVkn(nine);
  }

  /** The generated index a tax number belongs to, or -1. */
  indexOf(taxNumber: string): number {
    if (!/^\d{10,11}$/.test(taxNumber)) return -1;
    const n = Number(taxNumber.slice(0, 9));
    const i = Number(((BigInt(n - this.offset + MOD) % BigInt(MOD)) * BigInt(MULT_INV)) % BigInt(MOD));
    return i < this.size && this.taxNumberAt(i) === taxNumber ? i : -1;
  }

  /** Changes so far (registrations, deregistrations, aliases, imported overrides): a list's version. */
  get revision(): number {
    return this.changes;
  }

  count(): number {
    return this.size - this.deregistered.size + this.extras.size;
  }

  lookup(taxNumber: string): RegistryEntry | undefined {
    const extra = this.extras.get(taxNumber);
    if (extra) return extra;
    const i = this.indexOf(taxNumber);
    return i < 0 || this.deregistered.has(i) ? undefined : this.entryAt(i);
  }

  /** Entries [start, end) in registry order (end at most count()). */
  slice(start: number, end: number): RegistryEntry[] {
    const liveGenerated = this.size - this.deregistered.size;
    const extras = end > liveGenerated ? [...this.extras.values()] : [];
    return Array.from({ length: end - start }, (_, j) => {
      const k = start + j;
      return k < liveGenerated ? this.entryAt(this.liveIndex(k)) : extras[k - liveGenerated];
    });
  }

  /** Every registered entry in order; generated on the fly. */
  *entries(): Generator<RegistryEntry> {
    for (let i = 0; i < this.size; i++) if (!this.deregistered.has(i)) yield this.entryAt(i);
    yield* this.extras.values();
  }

  /**
   * Title search (case-insensitive, Turkish-aware). Scans the generated titles without building
   * entries, stopping at `limit` matches.
   */
  searchTitle(text: string, limit: number, document?: GlobalUserType): RegistryEntry[] {
    const needle = foldTurkish(text.trim());
    const out: RegistryEntry[] = [];
    if (!needle) return out;
    // Titles draw from a vocabulary of several hundred thousand words: each is generated and tested.
    const replacedByIndex = new Map([...this.replaced].map(([tn, e]) => [this.indexOf(tn), e]));
    const accept = (e: RegistryEntry) => !document || e.aliases.some((a) => a.document === document);
    const checkDeregistered = this.deregistered.size > 0;
    for (let i = 0; i < this.size && out.length < limit; i++) {
      if (checkDeregistered && this.deregistered.has(i)) continue;
      const replaced = replacedByIndex.get(i);
      if (!foldTurkish(replaced ? replaced.Title : this.generatedTitle(i).title).includes(needle)) continue;
      const e = replaced ?? this.entryAt(i);
      if (accept(e)) out.push(e);
    }
    for (const e of this.extras.values()) {
      if (out.length >= limit) break;
      if (foldTurkish(e.Title).includes(needle) && accept(e)) out.push(e);
    }
    return out;
  }

  apply(change: RegistryAction): RegistryEntry | undefined {
    const tn = String(change.TaxNumber ?? '');
    if (!/^\d{10,11}$/.test(tn)) throw new TypeError('TaxNumber must have 10 or 11 digits');
    const i = this.indexOf(tn);
    this.changes++;
    switch (change.action) {
      case 'register': {
        if (i >= 0) {
          this.deregistered.delete(i);
          this.sortedDeregistered = undefined;
          const e = this.entryAt(i);
          if (change.Title) this.replaced.set(tn, { ...e, Title: change.Title });
          return this.entryAt(i);
        }
        const e = this.extras.get(tn) ?? this.makeEntry(tn, change.Title ?? `${tn} Kayıtlı Mükellef`, hash3(this.seed, Number(tn.slice(0, 9)), 3));
        if (change.Title) e.Title = change.Title;
        this.extras.set(tn, e);
        return e;
      }
      case 'deregister':
        if (i >= 0) {
          this.deregistered.add(i);
          this.sortedDeregistered = undefined;
        }
        this.extras.delete(tn);
        return undefined;
      case 'changeAlias': {
        const current = this.lookup(tn);
        if (!current) throw new RangeError('not registered');
        const kind = change.AliasType ?? 'PK';
        const document = change.DocumentType ?? 'Invoice';
        const now = formatDate(new Date());
        const aliases = current.aliases.map((a) => (a.kind === kind && a.document === document && !a.DeletionTime ? { ...a, DeletionTime: now } : a));
        aliases.push({ Name: change.Alias, CreationTime: now, DeletionTime: null, kind, document });
        const next = { ...current, aliases };
        if (this.extras.has(tn)) this.extras.set(tn, next);
        else this.replaced.set(tn, next);
        return next;
      }
      default:
        throw new TypeError('unknown action');
    }
  }

  exportOverrides(): RegistryOverrides {
    return { deregistered: [...this.deregistered], entries: [...this.replaced.values(), ...this.extras.values()] };
  }

  importOverrides(o: RegistryOverrides): void {
    this.changes++;
    for (const i of o.deregistered ?? []) if (i >= 0 && i < this.size) this.deregistered.add(i);
    this.sortedDeregistered = undefined;
    for (const e of o.entries ?? []) {
      if (this.indexOf(e.TaxNumber) >= 0) this.replaced.set(e.TaxNumber, e);
      else this.extras.set(e.TaxNumber, e);
    }
  }

  /** Generated (or replaced) entry i. */
  entryAt(i: number): RegistryEntry {
    const tn = this.taxNumberAt(i);
    const replaced = this.replaced.get(tn);
    if (replaced) return replaced;
    const generated = this.generatedTitle(i);
    return this.makeEntry(tn, generated.title, hash3(this.seed, i, 2), generated.slug);
  }

  /** Entries whose nine-digit prefix does not start with 0 may be persons (TCKN). */
  private isPersonAt(i: number): boolean {
    return (MULT * i + this.offset) % MOD >= 100_000_000 && hash3(this.seed, i, 7) % 10 === 0;
  }

  /** The generated title of entry i: realistic (seed/titleWords.ts), one in 499 with XML special characters. */
  private generatedTitle(i: number): GeneratedTitle {
    const h = hash3(this.seed, i, 1);
    if (!this.isPersonAt(i) && h % 499 === 7) {
      const title = TRICKY_TITLES[(h >>> 10) % TRICKY_TITLES.length];
      return { title, slug: slugOfFirstWord(title) };
    }
    return realisticTitle(this.seed, i, this.isPersonAt(i));
  }

  /** The k-th registered generated index, skipping deregistered ones (few, kept sorted). */
  private liveIndex(k: number): number {
    if (!this.sortedDeregistered) this.sortedDeregistered = [...this.deregistered].sort((a, b) => a - b);
    let i = k;
    for (const d of this.sortedDeregistered) {
      if (d <= i) i++;
      else break;
    }
    return i;
  }

  private makeEntry(taxNumber: string, title: string, h: number, slug = slugOfFirstWord(title)): RegistryEntry {
    const place = pickBy(CITIES, h);
    const h2 = hash3(h, 1);
    const createdDay = h2 % 4300;
    const createdTime = clockTime(h2 % 86_400);
    const createdText = `${dayText(createdDay)}T${createdTime}`;
    const domain = `${slug}${taxNumber.slice(-4)}.${pickBy(DOMAINS, h2 >>> 4)}`;
    const aliases: RegistryAlias[] = [];
    const later = (days: number) => `${dayText(createdDay + days)}T${createdTime}`;
    if ((h2 >>> 8) % 20 === 0) {
      // A replaced mailbox: the old alias stays listed with its deletion time.
      aliases.push({ Name: `urn:mail:eskipk@${domain}`, CreationTime: createdText, DeletionTime: later(200), kind: 'PK', document: 'Invoice' });
    }
    aliases.push({ Name: `urn:mail:defaultpk@${domain}`, CreationTime: createdText, DeletionTime: null, kind: 'PK', document: 'Invoice' });
    if ((h2 >>> 12) % 12 !== 0) aliases.push({ Name: `urn:mail:defaultgb@${domain}`, CreationTime: createdText, DeletionTime: null, kind: 'GB', document: 'Invoice' });
    if ((h2 >>> 16) % 4 === 0) {
      aliases.push({ Name: `urn:mail:irsaliyepk@${domain}`, CreationTime: later(30), DeletionTime: null, kind: 'PK', document: 'DespatchAdvice' });
      aliases.push({ Name: `urn:mail:irsaliyegb@${domain}`, CreationTime: later(30), DeletionTime: null, kind: 'GB', document: 'DespatchAdvice' });
    }
    const publicSector = (h2 >>> 20) % 50 === 0;
    return {
      TaxNumber: taxNumber,
      Title: title,
      Type: publicSector ? 'Kamu' : 'Özel',
      AccountType: publicSector ? 'Kamu' : 'Özel',
      FirstCreationTime: createdText,
      TaxDepartment: pickBy(place.taxOffices, h2 >>> 3),
      Address: `${pickBy(STREETS, h2 >>> 5)} No:${1 + (h2 % 180)}`,
      City: place.city,
      District: pickBy(place.districts, h2 >>> 7),
      Country: 'Türkiye',
      PostalCode: String(10000 + (h2 % 80000)),
      Phone: `0${200 + (h2 % 300)}${String(h2 % 10_000_000).padStart(7, '0')}`,
      Fax: '',
      Email: `info@${domain}`,
      WebSite: `www.${domain}`,
      aliases,
    };
  }
}
