// The index build numbers title words with its own hash table (src/registry/wordTable.ts): it must
// number them exactly as a Map would (first met, first numbered), whichever way a word comes in (folded
// code units or a string), through every growth of its arrays.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { TitleWords } from '../../../src/registry/titleWords';
import { WordTable } from '../../../src/registry/wordTable';

/** A small seeded generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTERS = 'abcçdefgğhıijklmnoöprsştuüvyz0123456789';

function randomWord(next: () => number): string {
  const length = 1 + Math.floor(next() * next() * 40);
  let word = '';
  for (let i = 0; i < length; i++) {
    const r = next();
    // Mostly Turkish letters; now and then any code unit, a lone surrogate or an astral letter.
    if (r < 0.97) word += LETTERS[Math.floor(next() * LETTERS.length)];
    else if (r < 0.985) word += String.fromCharCode(Math.floor(next() * 0x10000));
    else word += '\u{1d4d0}';
  }
  return word;
}

test('words are numbered as a Map numbers them, from strings and from code units alike, past every growth', () => {
  const next = random(20261125);
  const table = new WordTable();
  const expected = new Map<string, number>();
  // 60,000 distinct words or so (the arrays start at 8,192 words and 65,536 code units), each met
  // several times, Zipf-like: a few words very often, most rarely.
  const vocabulary = Array.from({ length: 60_000 }, () => randomWord(next));
  vocabulary.push('', 'a', 'aa', 'aaa', 'ab', 'ba');
  const codes = new Uint16Array(200);
  for (let i = 0; i < 400_000; i++) {
    const word = vocabulary[Math.floor(vocabulary.length * next() ** 3)];
    if (!expected.has(word)) expected.set(word, expected.size);
    let id: number;
    if (next() < 0.5) {
      id = table.idOf(word);
    } else {
      // The same word at a random place in a longer buffer, as a batch's folded text holds it.
      const at = Math.floor(next() * (codes.length - word.length));
      for (let k = 0; k < word.length; k++) codes[at + k] = word.charCodeAt(k);
      id = table.idOfCodes(codes, at, at + word.length);
    }
    assert.equal(id, expected.get(word), `word ${JSON.stringify(word)}`);
  }
  assert.ok(expected.size > 20_000, `enough distinct words to grow every array (${expected.size})`);
  assert.equal(table.count, expected.size);
  assert.deepEqual(table.words(), [...expected.keys()]);
});

test('words that share a hash slot, a prefix or a length stay apart', () => {
  const table = new WordTable();
  // Many short words: with 16,384 slots at first, hundreds of them share a first slot.
  const words: string[] = [];
  for (let a = 0; a < 128; a++) for (let b = 0; b < 128; b++) words.push(String.fromCharCode(0x61 + (a % 26), 0x30 + (b % 10), a, b));
  const unique = [...new Set(words)];
  unique.forEach((word, i) => assert.equal(table.idOf(word), i));
  unique.forEach((word, i) => assert.equal(table.idOf(word), i, 'the same number when met again'));
  assert.deepEqual(table.words(), unique);
});

test('title words refuse a taxpayer out of list order: the spilled runs and their merge rely on it', async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-words-'));
  const words = new TitleWords(folder, 100);
  await words.addTitles('Kaya Gıda', 5);
  await words.addTitles('Demir', 5);
  await assert.rejects(words.addTitles('Demir Tekstil', 4), /list order: 4 came after 5/);
  await words.abandon();
  fs.rmSync(folder, { recursive: true, force: true });
});

test('compare() orders two words as < orders their text (code units; a prefix first)', () => {
  const next = random(7);
  const table = new WordTable();
  const words = [...new Set([...Array.from({ length: 3000 }, () => randomWord(next)), 'a', 'ab', 'abc', 'b', 'ı', 'i', 'z'])];
  for (const word of words) table.idOf(word);
  for (let k = 0; k < 20_000; k++) {
    const a = Math.floor(next() * words.length);
    const b = Math.floor(next() * words.length);
    const expected = words[a] < words[b] ? -1 : words[a] > words[b] ? 1 : 0;
    assert.equal(Math.sign(table.compare(a, b)), expected, `${JSON.stringify(words[a])} vs ${JSON.stringify(words[b])}`);
  }
});

test('release() gives the arrays back: the table is empty and numbers words from 0 again', () => {
  const table = new WordTable();
  for (let i = 0; i < 50_000; i++) table.idOf(`w${i}`);
  table.release();
  assert.equal(table.count, 0);
  assert.deepEqual(table.words(), []);
  assert.equal(table.idOf('w7'), 0);
  assert.equal(table.idOf('yeni'), 1);
  assert.equal(table.idOf('w7'), 0);
});
