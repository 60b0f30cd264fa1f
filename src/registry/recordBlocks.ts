// The records of an index (records.z, records.idx, records.dict): blocks of RECORDS_PER_BLOCK encoded
// taxpayers (format.ts), each deflated on its own so a look-up inflates one block, with the first
// block's opening bytes as the preset dictionary of every block. Written where the title words are
// (indexSink.ts: the index worker thread), off the thread that parses the list.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { FileAppender, writeFloat64s } from './fileAppender';
import { DICTIONARY_BYTES, FILES } from './format';

/** zlib level for record blocks: with the preset dictionary, 4 is within 3 % of 6 at less CPU. */
const DEFLATE_LEVEL = 4;

export class RecordBlocks {
  /** Where each block starts in records.z (a few tens of thousands for a full list). */
  private readonly blockOffsets: number[] = [];
  private dictionary: Buffer | undefined;

  private constructor(
    private readonly folder: string,
    private readonly records: FileAppender,
  ) {}

  static async create(folder: string): Promise<RecordBlocks> {
    return new RecordBlocks(folder, await FileAppender.create(path.join(folder, FILES.records)));
  }

  /**
   * Deflates one block (its records joined by RECORD_SEP, as text or as UTF-8) and appends it.
   * Synchronously: for blocks this small, zlib's thread pool costs more CPU in hand-offs than it
   * saves (measured again on 64-record blocks: 1.5-2.4× the CPU time, with 1 to 8 blocks in flight).
   */
  async add(block: string | Uint8Array): Promise<void> {
    const raw = typeof block === 'string' ? Buffer.from(block, 'utf8') : Buffer.from(block.buffer, block.byteOffset, block.byteLength);
    if (!this.dictionary) {
      this.dictionary = Buffer.from(raw.subarray(0, DICTIONARY_BYTES));
      await fs.promises.writeFile(path.join(this.folder, FILES.recordDict), this.dictionary);
    }
    this.blockOffsets.push(this.records.offset);
    // Output under 4 KiB comes from Buffer's shared pool rather than a 16 KiB buffer of its own per
    // block: those waited for a full collection in a worker with little else to collect. The bytes are
    // the same.
    await this.records.append(zlib.deflateSync(raw, { level: DEFLATE_LEVEL, dictionary: this.dictionary, chunkSize: 4095 }));
  }

  /** Closes records.z and writes the block table (and an empty dictionary for an empty list). */
  async finish(): Promise<void> {
    if (!this.dictionary) await fs.promises.writeFile(path.join(this.folder, FILES.recordDict), Buffer.alloc(0));
    this.blockOffsets.push(this.records.offset);
    await this.records.close();
    await writeFloat64s(path.join(this.folder, FILES.recordIndex), Float64Array.from(this.blockOffsets));
  }

  async abandon(): Promise<void> {
    await this.records.close().catch(() => undefined);
  }
}
