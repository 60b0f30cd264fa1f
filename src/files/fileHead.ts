// The opening bytes of a file, to tell what it is without reading it whole.
import { open } from 'node:fs/promises';

/** The first `bytes` bytes of `file` (fewer when it is shorter). */
export async function readHead(file: string, bytes: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
