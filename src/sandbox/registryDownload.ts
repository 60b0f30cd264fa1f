// GET /general/GlobalCompany/{AliasType}/{GlobalUserType}: a JSON string holding base64 of a ZIP
// whose one (dated) XML entry lists the registry. Streamed end to end with back-pressure.
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AliasKind, DocumentKind, Registry } from './registry';
import { registryXmlChunks } from './registryXml';
import { Base64Encoder, zipEntryStages } from './zipWriter';

export function registryEntryName(aliasKind: AliasKind, document: DocumentKind, now = new Date()): string {
  const stamp = now.toISOString().slice(0, 10).replace(/-/g, '');
  return `KullaniciListesi_${aliasKind}_${document}_${stamp}.xml`;
}

export async function streamRegistryZip(registry: Registry, aliasKind: AliasKind, document: DocumentKind, res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
  const source = Readable.from(registryXmlChunks(registry.entries(), aliasKind, document), { objectMode: false });
  try {
    // Level 1: about twice as fast as the default for ~12 % more bytes; speed matters more in a stand-in.
    const [counter, deflate, framer] = zipEntryStages(registryEntryName(aliasKind, document), new Date(), 1);
    await pipeline(source, counter, deflate, framer, new Base64Encoder('"', '"'), res);
  } catch {
    // The client went away (or a fault cut the socket): nothing left to answer.
    res.destroy();
  }
}
