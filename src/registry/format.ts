// On-disk layout of the offline registry index, format 2 (one folder per downloaded list):
//
//   meta.json     IndexMeta: which list, when, how many taxpayers, the ZIP it came from, and the
//                 byte size of every other file (a truncated or swapped file is refused on open).
//   records.z     the taxpayers in list order, RECORDS_PER_BLOCK to a block; each block is one zlib
//                 stream (deflate + Adler-32, so a damaged block is refused, never misread) of
//                 records joined by RECORD_SEP (see encodeRecord), deflated with a preset dictionary.
//   records.dict  that dictionary: the first block's text, up to DICTIONARY_BYTES (small blocks
//                 compress about as well as the whole list with it; zlib checks its Adler-32).
//   records.idx   Float64 LE byte offsets of the blocks in records.z, plus the file length.
//   taxnums.z     (tax number key, record block) sorted by key, TAX_BLOCK entries to a block, as
//                 unsigned varints: key delta from the previous entry (the first from the block's first
//                 key), then the number of the record block holding that taxpayer.
//   taxnums.idx   Float64 LE: every block's first key, then the blocks' byte offsets plus the length.
//   words.dict    the folded title words, sorted, WORDS_PER_BLOCK to a block, front-coded: varints
//                 (shared prefix, suffix bytes), the suffix (UTF-8), varints (postings offset in
//                 words.post, postings byte length, count).
//   words.idx     JSON: per dictionary block [first word, byte offset, CRC-32 of the block], then the
//                 end offsets of words.dict and words.post.
//   words.post    per word, its record ordinals ascending as varint deltas (the first from 0); checked
//                 on read to be exactly `count` strictly ascending ordinals of this list.
//
// Format 1 (before 0.2) kept records as plain JSON and postings as 4-byte integers, 4–5 times the ZIP;
// its meta.json says `"format": 1`, and such an index is rebuilt from its ZIP, never read.
//
// A download builds a new folder next to the current one and then replaces the `current` pointer
// file with a rename, so a reader sees either the old index or the new one, never a half-built one.

import type { Taxpayer } from '../domain/registryXml';

export const INDEX_FORMAT = 2;
export const RECORDS_PER_BLOCK = 64;
export const DICTIONARY_BYTES = 16 * 1024;
/** Entries per block of taxnums.z: a lookup decodes one block. */
export const TAX_BLOCK = 64;
export const WORDS_PER_BLOCK = 32;

export const FILES = {
  meta: 'meta.json',
  records: 'records.z',
  recordDict: 'records.dict',
  recordIndex: 'records.idx',
  taxNumbers: 'taxnums.z',
  taxIndex: 'taxnums.idx',
  wordDict: 'words.dict',
  wordIndex: 'words.idx',
  wordPostings: 'words.post',
} as const;

/** The pointer file naming the folder in use, replaced by rename. */
export const CURRENT_POINTER = 'current';

export interface IndexMeta {
  format: number;
  aliasType: string;
  userType: string;
  /** ISO time the download finished. */
  downloadedAt: string;
  taxpayers: number;
  zipBytes: number;
  words: number;
  /** The list ZIP the index was built from (absent in indexes built from a stream). */
  zipPath?: string;
  /** That ZIP's modification time when the index was built: a ZIP changed since is indexed again. */
  zipMtimeMs?: number;
  /** Byte size of each data file, checked on open (format 2). */
  files?: Record<string, number>;
}

/** An index that cannot be read as it is: an older format, or damaged. */
export class RegistryIndexError extends Error {
  constructor(
    readonly reason: 'outdated' | 'corrupt',
    message: string,
  ) {
    super(message);
    this.name = 'RegistryIndexError';
  }
}

/**
 * A tax number as an exact number key: its digit count above its value, so "0123456789" (VKN,
 * 10 digits) and "123456789" never collide; exact in a double. NaN unless 1 to 11 digits.
 */
export function taxNumberKey(taxNumber: string): number {
  if (!/^\d{1,11}$/.test(taxNumber)) return Number.NaN;
  return taxNumber.length * 1e12 + Number(taxNumber);
}

// Separators of the record encoding: control characters XML 1.0 does not allow in text, so a list's
// values never hold them (should one arrive through a character reference, it becomes a space).
export const RECORD_SEP = '\x1c';
export const FIELD_SEP = '\x1f';
export const ALIAS_SEP = '\x1e';
export const PART_SEP = '\x1d';
// eslint-disable-next-line no-control-regex -- these control characters are exactly what is looked for
const SEPARATORS = /[\x1c-\x1f]/g;
// eslint-disable-next-line no-control-regex -- as above; without /g, so test() keeps no state
const HAS_SEPARATOR = /[\x1c-\x1f]/;

/** A value with any separator of the record encoding made a space. */
export const cleanValue = (s: string): string => (HAS_SEPARATOR.test(s) ? s.replace(SEPARATORS, ' ') : s);

/**
 * One taxpayer as text: TaxNumber, Title, Type, AccountType, FirstCreationTime, then one field per
 * document: its type, then per alias ALIAS_SEP name PART_SEP created [PART_SEP deleted].
 */
export function encodeRecord(t: Taxpayer): string {
  let s = cleanValue(t.Identifier) + FIELD_SEP + cleanValue(t.Title) + FIELD_SEP + cleanValue(t.Type) + FIELD_SEP + cleanValue(t.AccountType) + FIELD_SEP + cleanValue(t.FirstCreationTime);
  for (const d of t.Documents) {
    s += FIELD_SEP + cleanValue(d.type);
    for (const a of d.aliases) {
      s += ALIAS_SEP + cleanValue(a.Name) + PART_SEP + cleanValue(a.CreationTime);
      if (a.DeletionTime !== undefined) s += PART_SEP + cleanValue(a.DeletionTime);
    }
  }
  return s;
}

export function decodeRecord(s: string): Taxpayer {
  const f = s.split(FIELD_SEP);
  if (f.length < 5) throw new RegistryIndexError('corrupt', 'A registry index record is damaged.');
  return {
    Identifier: f[0],
    Title: f[1],
    Type: f[2],
    AccountType: f[3],
    FirstCreationTime: f[4],
    Documents: f.slice(5).map((doc) => {
      const [type, ...aliases] = doc.split(ALIAS_SEP);
      return {
        type,
        aliases: aliases.map((a) => {
          const p = a.split(PART_SEP);
          return p.length > 2 ? { Name: p[0], CreationTime: p[1], DeletionTime: p[2] } : { Name: p[0], CreationTime: p[1] ?? '' };
        }),
      };
    }),
  };
}
