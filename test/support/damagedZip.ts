// A ZIP whose directory is whole but one entry's compressed data is overwritten: it opens and lists
// its names, and that entry fails to inflate or its CRC-32 check (a download damaged on the way).
import { ZipArchive } from '../../src/domain/zip';

/** `bytes` with 300 bytes of the data of the entry whose name ends with `suffix` overwritten. */
export async function damagedZip(bytes: Buffer, suffix: string): Promise<Buffer> {
  const copy = Buffer.from(bytes);
  const zip = await ZipArchive.open(copy);
  try {
    const entry = zip.files().find((e) => e.name.endsWith(suffix));
    if (!entry || entry.compressedSize < 500) throw new Error(`no entry ending ${suffix} with 500 bytes of data`);
    const at = entry.localOffset;
    const dataStart = at + 30 + copy.readUInt16LE(at + 26) + copy.readUInt16LE(at + 28);
    copy.fill(0xff, dataStart + 100, dataStart + 400);
    return copy;
  } finally {
    await zip.close();
  }
}
