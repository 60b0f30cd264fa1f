// The four places the extension can talk to, and the rules for a custom URL. No `vscode` import:
// this is plain logic the tests can call directly.

export type EnvironmentId = 'production' | 'test' | 'sandbox' | 'custom';

export const ENVIRONMENT_IDS: readonly EnvironmentId[] = ['production', 'test', 'sandbox', 'custom'];

export const FIXED_BASE_URLS = {
  production: 'https://api.nilvera.com',
  test: 'https://apitest.nilvera.com',
} as const;

export function isEnvironmentId(value: unknown): value is EnvironmentId {
  return typeof value === 'string' && (ENVIRONMENT_IDS as readonly string[]).includes(value);
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export type CustomUrlCheck = { ok: true; baseUrl: string } | { ok: false; reason: 'empty' | 'invalid' | 'insecure' | 'credentials' };

/**
 * A custom base URL must be https, or http only on a loopback host (a local stand-in), so the key
 * never crosses a network in clear text. Credentials in the URL are refused (they would end up in
 * logs). The result has no trailing slash and no query or fragment.
 */
export function checkCustomUrl(raw: string): CustomUrlCheck {
  const text = raw.trim();
  if (!text) return { ok: false, reason: 'empty' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (url.username || url.password) return { ok: false, reason: 'credentials' };
  if (url.protocol === 'http:') {
    if (!LOOPBACK_HOSTS.has(url.hostname)) return { ok: false, reason: 'insecure' };
  } else if (url.protocol !== 'https:') {
    return { ok: false, reason: 'invalid' };
  }
  const path = url.pathname.replace(/\/+$/, '');
  return { ok: true, baseUrl: `${url.protocol}//${url.host}${path}` };
}
