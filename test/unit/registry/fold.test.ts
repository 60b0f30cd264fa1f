// The index build folds and splits titles a batch at a time (foldedLatinBatch, else foldedWordsOfOtherTitles); searches fold the
// query with foldedWords. The two must give the same words for every title, or a word indexed one way
// is searched for the other way and never found. Compared here on random titles drawn to reach every
// branch: Latin-only batches (the table), batches with Greek or astral characters (the batch lower-cased
// at once, and a final sigma next to the separator), and batches with a combining dot (title by title).
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { foldedLatinBatch, foldedWords, foldedWordsOfOtherTitles, foldTurkish, TITLE_SEPARATOR } from '../../../src/registry/fold';

/** A small deterministic generator (xorshift32), so a failure can be replayed. */
function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}

const LATIN = [...'ABCÇDEFGĞHIİJKLMNOÖPRSŞTUÜVYZabcçdefgğhıijklmnoöprsştuüvyz0123456789ÂÎÛâîûÀÉÑßÆØǅȺȾ'];
const PUNCTUATION = [' ', ' ', ' ', '.', ',', '&', '-', "'", '"', '/', '(', ')', '\t', '\n', '\u00a0', '\u00ad', '·', '²'];
const GREEK = [...'ΣσςΑΒΓΔΟΩαβγ'];
const ASTRAL = ['𝐀', '𝐁', '𝟘', '😀', '\ud835', '\udc00'];
const COMBINING_DOT = '\u0307';

function title(next: () => number, alphabets: string[][]): string {
  const length = Math.floor(next() * 24);
  let s = '';
  for (let i = 0; i < length; i++) {
    const alphabet = alphabets[Math.floor(next() * alphabets.length)];
    s += alphabet[Math.floor(next() * alphabet.length)];
  }
  return s;
}

/** A batch's words as the index build folds them: by table when foldedLatinBatch takes it, its bounds read back as strings. */
function foldedWordsOfTitles(joined: string): string[][] {
  const batch = foldedLatinBatch(joined);
  if (!batch) return foldedWordsOfOtherTitles(joined);
  const titles: string[][] = [[]];
  for (let k = 0; k < batch.boundCount; k++) {
    if (batch.bounds[k] < 0) titles.push([]);
    else titles[titles.length - 1].push(String.fromCharCode(...batch.codes.subarray(batch.bounds[k], batch.bounds[++k])));
  }
  titles.pop();
  return titles;
}

function assertSameAsTitleByTitle(titles: string[], label: string): void {
  const joined = titles.join(TITLE_SEPARATOR);
  assert.deepEqual(foldedWordsOfTitles(joined), titles.map(foldedWords), `${label}: ${JSON.stringify(joined)}`);
}

test('a batch of Latin titles (the table) gives foldedWords title by title', () => {
  const next = random(18);
  for (let batch = 0; batch < 400; batch++) {
    const titles = Array.from({ length: 1 + Math.floor(next() * 40) }, () => title(next, [LATIN, LATIN, PUNCTUATION]));
    assert.ok(foldedLatinBatch(titles.join(TITLE_SEPARATOR)), 'folded by table');
    assertSameAsTitleByTitle(titles, `batch ${batch}`);
  }
});

test('a batch with Greek, astral letters and lone surrogates (lower-cased at once) gives foldedWords title by title', () => {
  const next = random(1807);
  for (let batch = 0; batch < 400; batch++) {
    const titles = Array.from({ length: 1 + Math.floor(next() * 40) }, () => title(next, [LATIN, PUNCTUATION, GREEK, ASTRAL]));
    assertSameAsTitleByTitle(titles, `batch ${batch}`);
  }
  // A final sigma at a title's end folds to ς, though the next title starts with a capital letter.
  assertSameAsTitleByTitle(['ΟΔΟΣ', 'ΑΒΓ', 'ΟΔΟΣ.', 'ΑΣ\'Β'], 'final sigma');
  assert.deepEqual(foldedWordsOfTitles(['ΟΔΟΣ', 'ΑΒΓ'].join(TITLE_SEPARATOR)), [['οδος'], ['αβγ']]);
});

test('a batch with a combining dot above anywhere is folded title by title (Turkish locale rules)', () => {
  const next = random(2026);
  for (let batch = 0; batch < 200; batch++) {
    const titles = Array.from({ length: 1 + Math.floor(next() * 20) }, () => title(next, [LATIN, PUNCTUATION, [COMBINING_DOT, 'I', 'i']]));
    assertSameAsTitleByTitle(titles, `batch ${batch}`);
  }
});

test('Turkish folding in a batch: İ is i, I is ı; empty titles and an empty batch keep their places', () => {
  assert.deepEqual(foldedWordsOfTitles(['İSTANBUL IŞIK', '', 'Yılmaz & Oğulları Ltd. Şti.', '...'].join(TITLE_SEPARATOR)), [
    ['istanbul', 'ışık'],
    [],
    ['yılmaz', 'oğulları', 'ltd', 'şti'],
    [],
  ]);
  assert.deepEqual(foldedWordsOfTitles(''), [[]]);
  assert.equal(foldTurkish('İ'), 'i');
});
