// Defence in depth for everything the extension writes to a log or a message: any known secret
// that slipped into a text is replaced. The primary rule stays "never pass a key to a logger".

const knownSecrets = new Set<string>();

/** Remembers a secret (a key or a password) so later texts can be scrubbed of it. */
export function rememberSecret(secret: string | undefined): void {
  // Very short values would blank out ordinary words; real keys are long.
  if (secret && secret.length >= 8) knownSecrets.add(secret);
}

export function redact(text: string): string {
  let out = text;
  for (const secret of knownSecrets) {
    if (out.includes(secret)) out = out.split(secret).join('***');
  }
  // A bearer header pasted into an error text by some layer below.
  return out.replace(/(Bearer\s+)[^\s"']+/gi, '$1***');
}
