// Test helper: a quiet sandbox on a free loopback port, closed after use.
import { startSandbox } from '../../src/sandbox/server';
import { maybeViaPrism } from './prismProxy';
import type { Pagination } from '../../src/api/types';
import type { BehaviourSettings } from '../../src/sandbox/behaviour';
import type { SandboxHandle, SandboxOptions } from '../../src/sandbox/types';

export type { BehaviourSettings, SandboxHandle, SandboxOptions };

/** A list page as the sandbox answers it: every field filled (the API's `Pagination` allows null). */
export type SandboxPage<T> = { [K in keyof Pagination<T>]: NonNullable<Pagination<T>[K]> };

/** With NILVERA_VIA_PRISM=1 the sandbox sits behind `prism proxy` (test/support/prismProxy.ts). */
export async function startTestSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  return maybeViaPrism(await startSandbox({ port: 0, host: '127.0.0.1', quiet: true, ...options }));
}

/** Runs fn with a fresh sandbox and closes it afterwards, also when fn throws. */
export async function withSandbox<T>(options: SandboxOptions, fn: (sandbox: SandboxHandle) => Promise<T>): Promise<T> {
  const sandbox = await startTestSandbox(options);
  try {
    return await fn(sandbox);
  } finally {
    await sandbox.close();
  }
}

/** fetch against the sandbox with the full key (or `key`) and JSON handling. */
export async function api(
  sandbox: SandboxHandle,
  method: string,
  path: string,
  body?: unknown,
  key: string | null = sandbox.keys.full,
): Promise<{ status: number; headers: Headers; json: unknown; text: string }> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(sandbox.url + path, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

/** GET /__sandbox/state (control endpoint, no key). */
export async function sandboxState(sandbox: SandboxHandle): Promise<Record<string, unknown> & { inFlight: number; behaviour: { profile: string; quirks: Record<string, string>; overrides: Record<string, string> } }> {
  const res = await fetch(`${sandbox.url}/__sandbox/state`);
  if (!res.ok) throw new Error(`GET /__sandbox/state: ${res.status}`);
  return (await res.json()) as never;
}

/** POST /__sandbox/behaviour: switches profile and quirks without restarting (see src/sandbox/behaviour.ts). */
export async function setSandboxBehaviour(sandbox: SandboxHandle, settings: BehaviourSettings): Promise<void> {
  const res = await fetch(`${sandbox.url}/__sandbox/behaviour`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(settings) });
  if (!res.ok) throw new Error(`POST /__sandbox/behaviour: ${res.status} ${await res.text()}`);
}

/** Deletes every certificate, identification, document and customer: an account with nothing to list. */
export async function emptyAccount(sandbox: SandboxHandle): Promise<void> {
  const expectOk = async (method: string, path: string, body?: unknown) => {
    const res = await api(sandbox, method, path, body);
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res;
  };
  // Read as plain lists (an empty one answers 404 by default).
  sandbox.setBehaviour({ profile: 'default', quirks: { emptyList: 'emptyArray' } });
  for (const [list, del] of [
    ['/general/Company/Certificate', '/general/Company/Certificate/'],
    ['/general/CompanyIdentification', '/general/CompanyIdentification/'],
    ['/general/CompanyDocuments', '/general/CompanyDocuments/'],
  ] as const) {
    for (const r of (await expectOk('GET', list)).json as Array<{ ID: number }>) await expectOk('DELETE', `${del}${r.ID}`);
  }
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const p = (await expectOk('GET', `/general/Customers?Page=${page}&PageSize=100`)).json as { Content: Array<{ ID: number }> };
    if (p.Content.length === 0) break;
    ids.push(...p.Content.map((c) => c.ID));
  }
  if (ids.length) await expectOk('DELETE', '/general/Customers/Bulk', ids);
  sandbox.setBehaviour({ profile: 'default' });
}
