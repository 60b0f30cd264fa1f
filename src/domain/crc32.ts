// CRC-32 as ZIP uses it, continuing from `previous` over chunks. zlib.crc32 arrived in Node 20.15 /
// 22.2; older extension hosts get the table-driven version.
import * as zlib from 'node:zlib';

const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;
let table: Int32Array | undefined;

function tableCrc32(data: Uint8Array, previous: number): number {
  if (!table) {
    table = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c;
    }
  }
  let c = ~previous;
  for (let i = 0; i < data.length; i++) c = table[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

export function crc32(data: Uint8Array, previous = 0): number {
  return nativeCrc32 ? nativeCrc32(data, previous) >>> 0 : tableCrc32(data, previous);
}

/** The portable version, exported so a test can compare it with zlib's on this Node. */
export const crc32Portable = tableCrc32;
