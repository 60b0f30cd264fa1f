// Column headers as spreadsheets write them: English or Turkish, any case, Turkish letters or their ASCII
// stand-ins ("VERGİ NO", "VERGI NO"), spaces and punctuation anywhere ("VKN/TCKN", "Vergi_No"). One
// matcher for the customer import, the editor's CSV checks, the hovers and the bulk check. A Windows-1254
// or Mac Turkish file opened as UTF-8 shows U+FFFD for each Turkish letter ("VERG� NO"): folding keeps it
// as a wildcard for the ASCII base of one Turkish letter, so such a header is still recognised.

/** What U+FFFD folds to. */
export const WILDCARD = '*';

/** The ASCII bases the folded Turkish letters have (ç ğ ı/İ ö ş ü, and â î û). */
const WILDCARD_BASES = new Set(['c', 'g', 'i', 'o', 's', 'u', 'a']);

/**
 * Turkish-aware lower case, Turkish letters to their ASCII bases, accents dropped, U+FFFD to `*`,
 * everything but letters and digits dropped: "VERGİ NUMARASI" → "verginumarasi", "E-posta" → "eposta",
 * "IsExport" → "isexport".
 */
export function foldHeader(header: string): string {
  return header
    .replace(/\uFFFD/g, WILDCARD)
    .toLocaleLowerCase('tr')
    // ı is the only Turkish letter with no base in NFD; ş ğ ü ö ç â î û lose their marks below.
    .replace(/ı/g, 'i')
    .normalize('NFD')
    .replace(/[^a-z0-9*]/g, '');
}

/** Whether a folded header (with wildcards) can be the folded name `known`. */
function wildcardEquals(folded: string, known: string): boolean {
  if (folded.length !== known.length) return false;
  for (let i = 0; i < folded.length; i++) {
    const c = folded[i];
    if (c === known[i]) continue;
    if (c !== WILDCARD || !WILDCARD_BASES.has(known[i])) return false;
  }
  return true;
}

/** A set of header names, matched after folding (and through wildcards). */
export class HeaderNames<T = true> {
  private readonly byFolded = new Map<string, T>();

  constructor(entries: Iterable<readonly [name: string, value: T]>) {
    for (const [name, value] of entries) {
      const folded = foldHeader(name);
      if (!this.byFolded.has(folded)) this.byFolded.set(folded, value);
    }
  }

  static of(names: Iterable<string>): HeaderNames<true> {
    return new HeaderNames<true>([...names].map((n) => [n, true] as const));
  }

  /** The value of the name `header` is (after folding), if any. */
  lookup(header: string): T | undefined {
    const folded = foldHeader(header);
    const exact = this.byFolded.get(folded);
    if (exact !== undefined || !folded.includes(WILDCARD)) return exact;
    for (const [known, value] of this.byFolded) if (wildcardEquals(folded, known)) return value;
    return undefined;
  }

  has(header: string): boolean {
    return this.lookup(header) !== undefined;
  }
}

/** The headers that name a tax number (VKN, TCKN or either), as customer lists and exports write them. */
export const TAX_NUMBER_HEADER_NAMES: readonly string[] = [
  'VKN/TCKN',
  'TCKN/VKN',
  'VKN',
  'TCKN',
  'VKN veya TCKN',
  'Vergi No',
  'Vergi Numarası',
  'Vergi Kimlik No',
  'Vergi Kimlik Numarası',
  'TC Kimlik No',
  'TC Kimlik Numarası',
  'TC No',
  'Kimlik No',
  'TaxNumber',
  'Tax Number',
  'Tax No',
  'Tax Id',
  'TaxId',
  'Tax Identification Number',
  'VAT Number',
];

const TAX_NUMBER_HEADERS = HeaderNames.of(TAX_NUMBER_HEADER_NAMES);

export function isTaxNumberHeader(header: string): boolean {
  return TAX_NUMBER_HEADERS.has(header);
}

/** Folded starts and ends of phone and fax headers ("Telefon", "Cep Tel", "GSM No", "Fax"). */
const PHONE_STARTS = ['telefon', 'tel', 'phone', 'gsm', 'cep', 'mobil', 'fax', 'faks'];
const PHONE_ENDS = ['telefon', 'telefonu', 'tel', 'phone', 'gsm', 'fax', 'faks'];

/**
 * A phone or fax column: its 10-11 digit values look like tax numbers (a Turkish mobile number has 10
 * digits without its leading 0), so a column chosen by its values must never be one of these.
 */
export function isPhoneHeader(header: string): boolean {
  const folded = foldHeader(header);
  return folded.length > 0 && (PHONE_STARTS.some((p) => folded.startsWith(p)) || PHONE_ENDS.some((p) => folded.endsWith(p)));
}
