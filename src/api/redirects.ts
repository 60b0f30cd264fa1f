// Redirects followed by our own code, so the API key and request bodies go to one origin only.
// node-fetch's own following keeps `Authorization` for the same host on another port or a
// subdomain, and re-sends a body on a 307/308 to any host: every request here is sent with
// `redirect: 'manual'` and each hop is checked against the origin (scheme, host, port) it started at.

import { closeBody } from './bodyLimits';
import type { FetchLike, FetchResponseLike } from './http';

/** Hops followed at most; past that the call fails (a loop, or a server sending us around). */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface RedirectPolicy {
  /**
   * Follow a GET that is redirected to another origin, without the Authorization header (and
   * nothing else of ours): for downloads that a server may hand to a file host. Off by default.
   */
  crossOriginGet?: boolean;
}

/**
 * A redirect that was not followed: to another origin (with credentials or a body), or one hop too
 * many. Only origins are kept (never paths or queries, which may hold values of the request).
 */
export class RedirectRefusedError extends Error {
  readonly code: 'ERR_CROSS_ORIGIN_REDIRECT' | 'ERR_TOO_MANY_REDIRECTS' | 'ERR_INSECURE_REDIRECT';
  constructor(
    readonly reason: 'crossOrigin' | 'tooMany' | 'insecure',
    readonly fromOrigin: string,
    readonly toOrigin: string,
  ) {
    super(
      reason === 'crossOrigin'
        ? `the server redirected to another origin (${toOrigin}); the API key and the request are sent only to ${fromOrigin}`
        : reason === 'insecure'
          ? `the server redirected an https call to an unencrypted address (${toOrigin}); it was not followed`
          : `more than ${MAX_REDIRECTS} redirects`,
    );
    this.name = 'RedirectRefusedError';
    this.code = reason === 'crossOrigin' ? 'ERR_CROSS_ORIGIN_REDIRECT' : reason === 'insecure' ? 'ERR_INSECURE_REDIRECT' : 'ERR_TOO_MANY_REDIRECTS';
  }
}

type Init = Parameters<FetchLike>[1];

/** One hop's init: every request goes with `redirect: 'manual'`, so that each hop is checked here. */
export function hopInit(method: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal): Init {
  const init: Init = { method, headers, signal, redirect: 'manual' };
  if (body !== undefined) init.body = body;
  return init;
}

/** Where a redirect answer points, or null when the answer is not a redirect. */
export function redirectLocation(response: FetchResponseLike): string | null {
  return REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
}

/**
 * One request with its redirects followed here; `init` comes from hopInit (`redirect: 'manual'`). A hop
 * to the same origin keeps the headers and, for 307/308, the method and body (301/302 turn a POST into
 * a GET and 303 anything into a GET, as browsers do, dropping the body). A hop to another origin throws
 * RedirectRefusedError, unless the policy allows a GET there: then it goes without Authorization, and no
 * later hop gets it back, and never from https to plain http.
 */
export async function fetchWithinOrigin(fetchFn: FetchLike, url: string, init: Init, policy?: RedirectPolicy): Promise<FetchResponseLike> {
  const response = await fetchFn(url, init);
  return redirectLocation(response) === null ? response : followRedirects(fetchFn, url, init, response, policy);
}

/** The redirects of fetchWithinOrigin, once the first answer (`response`, to `init` sent to `url`) is in. */
async function followRedirects(fetchFn: FetchLike, url: string, init: Init, response: FetchResponseLike, policy: RedirectPolicy = {}): Promise<FetchResponseLike> {
  // Scheme, host and port (default ports left out, as URL does).
  const home = new URL(url).origin;
  let current = url;
  let method = init.method;
  let headers = init.headers; // replaced, never changed, when a hop drops a header
  let body = init.body;
  for (let hop = 0; ; hop++) {
    const location = redirectLocation(response);
    if (location === null) return response;
    closeBody(response.body);
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new RedirectRefusedError('crossOrigin', home, 'an unreadable address');
    }
    if (next.protocol !== 'https:' && next.protocol !== 'http:') throw new RedirectRefusedError('crossOrigin', home, `${next.protocol}`);
    if (hop + 1 > MAX_REDIRECTS) throw new RedirectRefusedError('tooMany', home, next.origin);
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      headers = withoutHeaders(headers, ['content-type']);
    }
    if (next.origin !== home) {
      // Spec-silent: the specification names no redirect anywhere (the registry download included).
      // Assumed: a download may be handed to a file host that needs no key, so a GET may follow
      // there when the caller allows it, without Authorization; anything with a body never does.
      if (!(policy.crossOriginGet && method === 'GET' && body === undefined)) throw new RedirectRefusedError('crossOrigin', home, next.origin);
      // What comes back over plain http could be changed on the way: an https call stays https.
      if (home.startsWith('https:') && next.protocol === 'http:') throw new RedirectRefusedError('insecure', home, next.origin);
      headers = withoutHeaders(headers, ['authorization', 'cookie']);
    }
    current = next.href;
    response = await fetchFn(current, hopInit(method, headers, body, init.signal));
  }
}

function withoutHeaders(headers: Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !names.includes(k.toLowerCase())));
}
