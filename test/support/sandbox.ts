// Test helper: a quiet sandbox on a free loopback port, closed after use.
import { startSandbox } from '../../src/sandbox/server';
import type { SandboxHandle, SandboxOptions } from '../../src/sandbox/types';

export type { SandboxHandle, SandboxOptions };

export function startTestSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  return startSandbox({ port: 0, host: '127.0.0.1', quiet: true, ...options });
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
