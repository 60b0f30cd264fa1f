// The registry as GİB-shaped XML, produced piece by piece (never one string):
// <UserList><User><Identifier/><Title/><Type/><AccountType/><FirstCreationTime/>
// <Documents><Document type="Invoice"><Alias><Name/><CreationTime/>[<DeletionTime/>]</Alias>...
import type { AliasType, GlobalUserType } from '../api/types';
import type { RegistryEntry } from './registry';
import { escapeXml } from '../domain/xmlChars';

/** One <User> element holding only the aliases of the given kind and document type; '' when none match. */
export function userXml(e: RegistryEntry, aliasKind: AliasType, document: GlobalUserType): string {
  let aliases = '';
  for (const a of e.aliases) {
    if (a.kind !== aliasKind || a.document !== document) continue;
    aliases += `<Alias><Name>${escapeXml(a.Name)}</Name><CreationTime>${a.CreationTime}</CreationTime>`;
    if (a.DeletionTime) aliases += `<DeletionTime>${a.DeletionTime}</DeletionTime>`;
    aliases += '</Alias>';
  }
  if (!aliases) return '';
  return (
    `<User><Identifier>${e.TaxNumber}</Identifier><Title>${escapeXml(e.Title)}</Title><Type>${escapeXml(e.Type)}</Type>` +
    `<AccountType>${escapeXml(e.AccountType)}</AccountType><FirstCreationTime>${e.FirstCreationTime}</FirstCreationTime>` +
    `<Documents><Document type="${document}">${aliases}</Document></Documents></User>\n`
  );
}

/** Yields the XML document in chunks of about `chunkChars` characters. */
export function* registryXmlChunks(entries: Iterable<RegistryEntry>, aliasKind: AliasType, document: GlobalUserType, chunkChars = 64 * 1024): Generator<string> {
  let buffer = '<?xml version="1.0" encoding="UTF-8"?>\n<UserList>\n';
  for (const e of entries) {
    buffer += userXml(e, aliasKind, document);
    if (buffer.length >= chunkChars) {
      yield buffer;
      buffer = '';
    }
  }
  yield buffer + '</UserList>\n';
}
