// Reshapes a handler's JSON answer for the behaviour points that act on every answer
// (src/sandbox/behaviour.ts): nullableFields and dateFormat. The default profile returns the answer
// untouched; the other answers build copies, never changing the stored records.
import type { Behaviour } from './behaviour';
import type { JsonObject } from './validate';

/**
 * Fields the export marks nullable in every schema that has them, and that a client shows or
 * matches on: names, titles, tax numbers, values, texts and exchange rates.
 */
const NULLED_FIELDS: ReadonlySet<string> = new Set([
  'Name', 'Title', 'TaxNumber', 'TaxDepartment', 'Value', 'Content', 'Message', 'Subject', 'Description', 'Email', 'Address',
  'USDBuy', 'USDSale', 'EUROBuy', 'EUROSale', 'GBPBuy', 'GBPSale',
]);

type Json = unknown;

function isRecord(v: Json): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function isPage(v: Json): v is JsonObject & { Page: number; Content: Json[] } {
  return isRecord(v) && typeof v.Page === 'number' && 'PageSize' in v && Array.isArray(v.Content);
}

/** Every third record (the 2nd, 5th, ...) has its nullable string fields as null. */
function nullSomeRecords(list: Json[]): Json[] {
  return list.map((item, i) => {
    if (i % 3 !== 1 || !isRecord(item)) return item;
    const copy: JsonObject = { ...item };
    for (const [k, v] of Object.entries(copy)) if (NULLED_FIELDS.has(k) && typeof v === 'string') copy[k] = null;
    return copy;
  });
}

/**
 * A page: an empty Content is null; odd pages have TotalCount null and no TotalPages, even pages
 * negative totals (both nullable int32 in the export, their meaning then unknown).
 */
function nullPage(page: JsonObject & { Page: number; Content: Json[] }): JsonObject {
  const { TotalPages: _pages, ...rest } = page;
  const content = page.Content.length ? nullSomeRecords(page.Content) : null;
  if (page.Page % 2 === 1) return { ...rest, TotalCount: null, Content: content };
  return { ...rest, TotalCount: -1, TotalPages: -1, Content: content };
}

const LOCAL_DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;

/** Date-times as 2026-01-01T00:00:00.000+03:00 (Turkey's fixed offset) instead of without offset. */
function withOffsets(v: Json): Json {
  if (typeof v === 'string') return LOCAL_DATE_TIME.test(v) ? `${v}.000+03:00` : v;
  if (Array.isArray(v)) return v.map(withOffsets);
  if (isRecord(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withOffsets(x)]));
  return v;
}

export function reshapeAnswer(result: Json, behaviour: Behaviour): Json {
  let out = result;
  if (behaviour.answerFor('nullableFields') === 'nulls') {
    if (isPage(out)) out = nullPage(out);
    else if (Array.isArray(out)) out = nullSomeRecords(out);
  }
  if (behaviour.answerFor('dateFormat') === 'offset') out = withOffsets(out);
  return out;
}
