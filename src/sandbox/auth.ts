// Bearer authentication: the full key may do everything, the restricted key may only read.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ApiError, ErrorCode } from './errors';

/** A key in the platform's shape: 64 upper-case hex characters. */
export function generateKey(): string {
  return randomBytes(32).toString('hex').toUpperCase();
}

function sameKey(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The key of the request's `Authorization: Bearer <key>` header, if it has one. */
export function bearerKey(req: IncomingMessage): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
}

/** Throws 401 for a missing key, 401 (or 403) for an unknown key, 403 when the restricted key attempts a write. */
export function authorize(req: IncomingMessage, keys: { full: string; restricted: string }, write: boolean, badKeyStatus: '401' | '403' = '401'): void {
  const key = bearerKey(req);
  if (key === undefined) throw new ApiError(401, ErrorCode.unauthorized, 'Authorization is required.', 'Send the header Authorization: Bearer <API key>.');
  if (sameKey(key, keys.full)) return;
  if (sameKey(key, keys.restricted)) {
    if (write) throw new ApiError(403, ErrorCode.forbidden, 'This API key has no permission for this operation.', 'The key may only read.');
    return;
  }
  // Never echo the key back. Spec-silent (behaviour point badKeyStatus): 401 or 403 for a wrong key.
  if (badKeyStatus === '403') throw new ApiError(403, ErrorCode.forbidden, 'The API key is not valid.', '');
  throw new ApiError(401, ErrorCode.unauthorized, 'The API key is not valid.', '');
}
