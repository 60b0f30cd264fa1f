// Which list an alias belongs to when only its name is known: the API does not label aliases PK or GB,
// but GİB's convention, which the platform follows, puts it in the alias's local part
// (urn:mail:defaultpk@…, urn:mail:defaultgb@…). The registry detail view and the reconciliation read it here.

export type AliasKind = 'PK' | 'GB';

/** PK (posta kutusu, receiving) or GB (gönderici birim, sending) by the local part; undefined when it cannot be told. */
export function aliasKind(alias: string): AliasKind | undefined {
  const local = alias.replace(/^urn:mail:/i, '').split('@')[0].toLowerCase();
  if (local.endsWith('pk')) return 'PK';
  if (local.endsWith('gb')) return 'GB';
  if (local.includes('pk') && !local.includes('gb')) return 'PK';
  if (local.includes('gb') && !local.includes('pk')) return 'GB';
  return undefined;
}
