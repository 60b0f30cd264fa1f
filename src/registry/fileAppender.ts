// Buffered appends to a file (the index build's output files).
import * as fs from 'node:fs';

/** Buffered appends to a file, waiting for the disk when the buffer is full. */
export class FileAppender {
  private buf = Buffer.allocUnsafe(1 << 20);
  private used = 0;
  private position = 0;
  private constructor(private readonly handle: fs.promises.FileHandle) {}

  static async create(file: string): Promise<FileAppender> {
    return new FileAppender(await fs.promises.open(file, 'wx'));
  }

  /** Bytes appended so far. */
  get offset(): number {
    return this.position + this.used;
  }

  async append(bytes: Buffer): Promise<void> {
    if (this.used + bytes.length > this.buf.length) await this.flush();
    if (bytes.length > this.buf.length) {
      await this.handle.write(bytes, 0, bytes.length, this.position);
      this.position += bytes.length;
      return;
    }
    bytes.copy(this.buf, this.used);
    this.used += bytes.length;
  }

  async flush(): Promise<void> {
    if (this.used === 0) return;
    await this.handle.write(this.buf, 0, this.used, this.position);
    this.position += this.used;
    this.used = 0;
  }

  async close(): Promise<void> {
    await this.flush();
    await this.handle.close();
  }
}

/** Writes `values` as a file of little-endian float64s (every platform VS Code runs on is little-endian). */
export async function writeFloat64s(file: string, values: Float64Array): Promise<void> {
  await fs.promises.writeFile(file, Buffer.from(values.buffer, values.byteOffset, values.byteLength));
}
