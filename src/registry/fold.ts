// Turkish-aware folding and word splitting for title search: "İSTANBUL", "istanbul" and "İstanbul"
// are one word, and "IŞIK" folds to "ışık" (dotless), never to "işik".

const DOTTED_OR_DOTLESS = /[Iİ]/;
const COMBINING_DOT = '\u0307';

/** Lower-cases with Turkish rules (İ → i, I → ı); other scripts fold as usual. */
export function foldTurkish(text: string): string {
  // The locale-aware call costs about a microsecond a title; only I, İ and a combining dot above
  // fold differently in Turkish, so the plain lower case does the rest.
  if (text.includes(COMBINING_DOT)) return text.toLocaleLowerCase('tr');
  if (!DOTTED_OR_DOTLESS.test(text)) return text.toLowerCase();
  return text.replace(/I/g, 'ı').replace(/İ/g, 'i').toLowerCase();
}

const WORD_SEPARATOR = /[^\p{L}\p{N}]+/u;

/** The folded words of a text: letters and digits; punctuation (". , & -") separates words. */
export function foldedWords(text: string): string[] {
  return wordsOf(foldTurkish(text));
}

function wordsOf(folded: string): string[] {
  return folded.split(WORD_SEPARATOR).filter((w) => w.length > 0);
}

/** What separates the titles of a batch; no title holds it (titleForBatch). */
export const TITLE_SEPARATOR = '\0';

/** A title as it joins a batch: a list's XML cannot hold NUL, and it separates words as a space would. */
export function titleForBatch(title: string): string {
  return title.includes(TITLE_SEPARATOR) ? title.replaceAll(TITLE_SEPARATOR, ' ') : title;
}

const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/**
 * Below U+0370 (Latin, IPA, spacing and combining marks: every character of a Turkish title), lower
 * case is one character for one, with no context rule: a table folds them. Built on first use.
 */
const LATIN_END = 0x370;
let latin: { folded: Uint16Array; isWordChar: Uint8Array } | undefined;

function latinTables(): NonNullable<typeof latin> {
  if (!latin) {
    const folded = new Uint16Array(LATIN_END);
    const isWordChar = new Uint8Array(LATIN_END);
    for (let c = 0; c < LATIN_END; c++) {
      const f = foldTurkish(String.fromCharCode(c));
      // None folds to two characters (İ is Turkish i); were one to, it would leave the table (0xffff).
      folded[c] = f.length === 1 ? f.charCodeAt(0) : 0xffff;
      isWordChar[c] = WORD_CHAR.test(f) ? 1 : 0;
    }
    // A combining dot above changes how an I before it folds (a context rule): it leaves the table.
    folded[COMBINING_DOT.charCodeAt(0)] = 0xffff;
    latin = { folded, isWordChar };
  }
  return latin;
}

/**
 * foldedWords of every title in `joined` (titles separated by TITLE_SEPARATOR), for a batch that
 * foldedLatinBatch gave up on. The batch is lower-cased at once, which equals lower-casing each title:
 * the one context rule of lower case (a final sigma) never looks across the separator, a control
 * character. With a combining dot above anywhere, title by title (Turkish locale rules).
 */
export function foldedWordsOfOtherTitles(joined: string): string[][] {
  if (joined.includes(COMBINING_DOT)) return joined.split(TITLE_SEPARATOR).map(foldedWords);
  return joined.replace(/I/g, 'ı').replace(/İ/g, 'i').toLowerCase().split(TITLE_SEPARATOR).map(wordsOf);
}

/**
 * A batch of titles folded by table, as code units and word bounds rather than strings, so the index
 * build can number the words without making strings of them (wordTable.ts).
 */
export interface FoldedBatch {
  /** The folded text: codes[i] is the fold of the batch's character i. */
  readonly codes: Uint16Array;
  /** Pairs (start, end) of each word in codes, and a -1 after each title's words. */
  readonly bounds: Int32Array;
  readonly boundCount: number;
}

// Kept from batch to batch (a batch is 2,048 titles); grown when one is longer.
let scratchCodes = new Uint16Array(1 << 16);
let scratchBounds = new Int32Array(1 << 17);

/**
 * The folded words of a batch of Latin titles, by table, in one pass: the index build's hot loop, where
 * folding and splitting title by title cost about a quarter of the build's CPU time. Undefined when the
 * batch holds any character from U+0370 up or a combining dot above (foldedWordsOfOtherTitles folds
 * it then). The arrays returned are reused by the next call.
 */
export function foldedLatinBatch(joined: string): FoldedBatch | undefined {
  const { folded: fold, isWordChar } = latinTables();
  const n = joined.length;
  if (scratchCodes.length < n) scratchCodes = new Uint16Array(2 * n);
  if (scratchBounds.length < 2 * n + 2) scratchBounds = new Int32Array(4 * n + 2);
  const codes = scratchCodes;
  const bounds = scratchBounds;
  let b = 0;
  let inWord = false;
  for (let i = 0; i < n; i++) {
    const c = joined.charCodeAt(i);
    if (c >= LATIN_END || fold[c] === 0xffff) return undefined;
    codes[i] = fold[c];
    if (isWordChar[c] === 1) {
      if (!inWord) bounds[b++] = i;
      inWord = true;
      continue;
    }
    if (inWord) bounds[b++] = i;
    inWord = false;
    if (c === 0) bounds[b++] = -1;
  }
  if (inWord) bounds[b++] = n;
  bounds[b++] = -1;
  return { codes, bounds, boundCount: b };
}
