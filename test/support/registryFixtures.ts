// Builders for GİB-shaped registry XML (tests and benchmarks). The expected Taxpayer objects and the
// XML come from the same builder, so a test can compare what the parser returns with what was written.

import { completeTckn, completeVkn } from '../../src/domain/taxId';
import { RegistryXmlParser, type Taxpayer } from '../../src/domain/registryXml';
import JSZip from 'jszip';

/** Escapes text for an XML element or a double-quoted attribute. */
export function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const TITLES = ['ANADOLU GIDA SANAYİ VE TİCARET A.Ş.', 'BOĞAZİÇİ LOJİSTİK LTD. ŞTİ.', 'ÇUKUROVA TEKSTİL A.Ş.', 'ÖZTÜRK & OĞULLARI', 'Ayşe Yılmaz'];

/** A deterministic taxpayer for index i: VKN or TCKN, one or two documents, some deleted aliases. */
export function buildTaxpayer(i: number): Taxpayer {
  const person = i % 5 === 4;
  const nine = String((i * 7919 + 100000000) % 900000000 + (person ? 100000000 : 0)).padStart(9, '0');
  const id = person ? completeTckn(nine) : completeVkn(nine);
  const day = String((i % 28) + 1).padStart(2, '0');
  const t: Taxpayer = {
    Identifier: id,
    Title: `${TITLES[i % TITLES.length]} ${i}`,
    Type: person ? 'Kişi' : 'Özel',
    AccountType: i % 3 === 0 ? 'Kagit' : 'Portal',
    FirstCreationTime: `2019-01-${day}T10:00:00`,
    Documents: [
      {
        type: 'Invoice',
        aliases: [{ Name: `urn:mail:defaultpk@firma${i}.com.tr`, CreationTime: `2019-01-${day}T10:00:00` }],
      },
    ],
  };
  if (i % 4 === 1) t.Documents[0].aliases.push({ Name: `urn:mail:eskipk@firma${i}.com.tr`, CreationTime: '2018-05-01T09:00:00', DeletionTime: '2019-01-01T00:00:00' });
  if (i % 2 === 0) t.Documents.push({ type: 'DespatchAdvice', aliases: [{ Name: `urn:mail:irsaliyepk@firma${i}.com.tr`, CreationTime: `2020-02-${day}T08:30:00` }] });
  return t;
}

/** XML of one <User> element exactly as GİB writes it (no extra white space). */
export function taxpayerXml(t: Taxpayer): string {
  let s = `<User><Identifier>${xmlEscape(t.Identifier)}</Identifier><Title>${xmlEscape(t.Title)}</Title><Type>${xmlEscape(t.Type)}</Type><AccountType>${xmlEscape(t.AccountType)}</AccountType><FirstCreationTime>${xmlEscape(t.FirstCreationTime)}</FirstCreationTime><Documents>`;
  for (const d of t.Documents) {
    s += `<Document type="${xmlEscape(d.type)}">`;
    for (const a of d.aliases) {
      s += `<Alias><Name>${xmlEscape(a.Name)}</Name><CreationTime>${xmlEscape(a.CreationTime)}</CreationTime>`;
      if (a.DeletionTime !== undefined) s += `<DeletionTime>${xmlEscape(a.DeletionTime)}</DeletionTime>`;
      s += '</Alias>';
    }
    s += '</Document>';
  }
  return s + '</Documents></User>';
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** A whole list document. */
export function registryXml(taxpayers: readonly Taxpayer[], options: { declaration?: boolean; separator?: string } = {}): string {
  const sep = options.separator ?? '\n';
  return (options.declaration === false ? '' : XML_DECLARATION) + '<UserList>' + sep + taxpayers.map(taxpayerXml).join(sep) + sep + '</UserList>\n';
}

/**
 * A large list as Buffer chunks of about `chunkBytes` each, generated on the fly (for benchmarks:
 * the whole document never exists at once). Returns the chunks lazily plus the user count.
 */
export function* registryXmlChunks(users: number, chunkBytes = 64 * 1024, offset = 0): Generator<Buffer> {
  let pieces: string[] = [XML_DECLARATION, '<UserList>\n'];
  let size = 0;
  for (let i = 0; i < users; i++) {
    const x = taxpayerXml(buildTaxpayer(offset + i)) + '\n';
    pieces.push(x);
    size += x.length;
    if (size >= chunkBytes) {
      yield Buffer.from(pieces.join(''), 'utf8');
      pieces = [];
      size = 0;
    }
  }
  pieces.push('</UserList>\n');
  yield Buffer.from(pieces.join(''), 'utf8');
}

/** Splits a buffer into pieces at the given byte offsets (to cut inside characters, tags and entities). */
export function splitAt(buf: Buffer, offsets: readonly number[]): Buffer[] {
  const out: Buffer[] = [];
  let prev = 0;
  for (const o of [...offsets].sort((a, b) => a - b)) {
    out.push(buf.subarray(prev, o));
    prev = o;
  }
  out.push(buf.subarray(prev));
  return out;
}

export type ZipEntrySpec = { name: string; data: string | Buffer; dir?: boolean };

/** A ZIP of these entries (folders when `dir`), made with jszip: the entries are in the given order. */
export async function makeZip(entries: readonly ZipEntrySpec[], compression: 'DEFLATE' | 'STORE' = 'DEFLATE'): Promise<Buffer> {
  const zip = new JSZip();
  for (const e of entries) {
    if (e.dir) zip.folder(e.name);
    else zip.file(e.name, e.data, { createFolders: false });
  }
  return zip.generateAsync({ type: 'nodebuffer', compression });
}

/** Parses a whole list at once (the product streams it through RegistryXmlParser). */
export function parseRegistryXml(input: Buffer | string): Taxpayer[] {
  const p = new RegistryXmlParser();
  p.write(typeof input === 'string' ? Buffer.from(input) : input);
  p.end();
  return p.take() ?? [];
}
