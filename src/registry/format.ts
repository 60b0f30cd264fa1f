// On-disk layout of the offline registry index (one folder per downloaded list):
//
//   meta.json       IndexMeta: which list, when it was downloaded, how many taxpayers.
//   records.bin     one compact JSON array per taxpayer (CompactRecord), concatenated, UTF-8.
//   offsets.bin     Float64 LE per record ordinal: start of its record in records.bin; one extra
//                   entry at the end holds the file length, so record i spans [off[i], off[i+1]).
//   taxnums.bin     entries sorted by key, TAX_ENTRY_BYTES each: Float64 LE key (taxNumberKey),
//                   Uint32 LE record ordinal. Looked up on disk: one read of a block, then the record.
//   taxnums.sparse  Float64 LE: the key of every TAX_BLOCK-th entry (kept in memory, a few KB).
//   words.dict      sorted folded words, one a line: "word\tpostingsStart\tcount".
//   words.post      Uint32 LE record ordinals, each word's run ascending.
//
// A download builds a new folder next to the current one and then replaces the `current` pointer
// file with a rename, so a reader sees either the old index or the new one, never a half-built one.

import type { Taxpayer } from '../domain/registryXml';

export const INDEX_FORMAT = 1;
export const TAX_ENTRY_BYTES = 12;
/** Entries per block of taxnums.bin: a lookup reads one block (TAX_BLOCK * 12 bytes). */
export const TAX_BLOCK = 128;

export const FILES = {
  meta: 'meta.json',
  records: 'records.bin',
  offsets: 'offsets.bin',
  taxNumbers: 'taxnums.bin',
  taxSparse: 'taxnums.sparse',
  wordDict: 'words.dict',
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
}

/**
 * A tax number as an exact number key: its digit count above its value, so "0123456789" (VKN,
 * 10 digits) and "123456789" never collide; exact in a double. NaN unless 1 to 11 digits.
 */
export function taxNumberKey(taxNumber: string): number {
  if (!/^\d{1,11}$/.test(taxNumber)) return Number.NaN;
  return taxNumber.length * 1e12 + Number(taxNumber);
}

/** [TaxNumber, Title, Type, AccountType, FirstCreationTime, [[documentType, [[alias, created, deleted?]...]]...]] */
export type CompactRecord = [string, string, string, string, string, Array<[string, Array<[string, string] | [string, string, string]>]>];

export function toCompact(t: Taxpayer): CompactRecord {
  return [
    t.Identifier,
    t.Title,
    t.Type,
    t.AccountType,
    t.FirstCreationTime,
    t.Documents.map((d) => [d.type, d.aliases.map((a) => (a.DeletionTime ? [a.Name, a.CreationTime, a.DeletionTime] : [a.Name, a.CreationTime]))]),
  ];
}

export function fromCompact(r: CompactRecord): Taxpayer {
  return {
    Identifier: r[0],
    Title: r[1],
    Type: r[2],
    AccountType: r[3],
    FirstCreationTime: r[4],
    Documents: r[5].map(([type, aliases]) => ({
      type,
      aliases: aliases.map((a) => (a.length === 3 ? { Name: a[0], CreationTime: a[1], DeletionTime: a[2] } : { Name: a[0], CreationTime: a[1] })),
    })),
  };
}
