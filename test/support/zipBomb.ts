// ZIP bombs for the ZIP limits' tests and the adversarial benchmark, and the one-entry ZIP they are
// written as: built from deflate data made without inflating anything near the size it declares.
import * as zlib from 'node:zlib';

const MB = 1024 * 1024;

export interface ZipBomb {
  zip: Buffer;
  /** Bytes the entry inflates to, and the deflate data it takes. */
  size: number;
  compressed: number;
}

/**
 * A ZIP of one deflated XML entry, `<UserList>`, `megabytes` MB of spaces and `</UserList>`, built
 * without deflating it all: one MB of spaces deflated by a fresh deflater (its back-references stay
 * inside it) and sync-flushed is a run of non-final blocks that can be repeated as often as wanted.
 * `declaredSize` lets the directory lie about the size.
 */
export function xmlBomb(megabytes: number, declaredSize?: number): ZipBomb {
  const spaces = Buffer.alloc(MB, 0x20);
  const head = Buffer.from('<UserList>');
  const tail = Buffer.from('</UserList>');
  const block = zlib.deflateRawSync(spaces, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const parts = [zlib.deflateRawSync(head, { finishFlush: zlib.constants.Z_SYNC_FLUSH })];
  let crc = zlib.crc32(head);
  for (let i = 0; i < megabytes; i++) {
    parts.push(block);
    crc = zlib.crc32(spaces, crc);
  }
  parts.push(zlib.deflateRawSync(tail));
  crc = zlib.crc32(tail, crc);
  const data = Buffer.concat(parts);
  const size = head.length + megabytes * MB + tail.length;
  return { zip: zipOfDeflated('list.xml', data, crc, declaredSize ?? size), size, compressed: data.length };
}

/** The bytes of a ZIP holding one entry of deflate `data` (no descriptor, no ZIP64: sizes under 4 GiB). */
export function zipOfDeflated(name: string, data: Buffer, crc: number, size: number): Buffer {
  const fileName = Buffer.from(name);
  const common = Buffer.alloc(26);
  common.writeUInt16LE(20, 0); // version needed
  common.writeUInt16LE(0, 2); // flags
  common.writeUInt16LE(8, 4); // deflated
  common.writeUInt32LE(crc >>> 0, 10);
  common.writeUInt32LE(data.length, 14);
  common.writeUInt32LE(size, 18);
  common.writeUInt16LE(fileName.length, 22);
  const local = Buffer.concat([u32(0x04034b50), common, fileName]);
  const central = Buffer.concat([u32(0x02014b50), Buffer.from([20, 0]), common, Buffer.alloc(14), fileName]);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(local.length + data.length, 16);
  return Buffer.concat([local, data, central, end]);
}

function u32(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(value >>> 0);
  return b;
}
