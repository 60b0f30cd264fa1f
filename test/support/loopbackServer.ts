// A scripted HTTP server on a free loopback port, for the API layer's tests over real HTTP (never a
// mocked fetch): each request's body is read whole and handed, with the request, to the test's handler.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

export type LoopbackHandler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` (`https://` with `tls`), with no trailing slash. */
  url: string;
  port: number;
  server: http.Server;
  /** Ends open connections too (a test may leave an answer half sent). */
  close(): Promise<void>;
}

export interface LoopbackOptions {
  /** The address to listen on (default 127.0.0.1; '::' answers `localhost` and 127.0.0.1 on one port). */
  host?: string;
  keepAliveTimeout?: number;
  /** Serve https with the self-signed certificate of test/fixtures/tls (trust it with `loopbackCa()`). */
  tls?: boolean;
}

/** test/fixtures/tls, found upward from this file's bundle (each test file is bundled in its own folder). */
function tlsDir(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'test', 'fixtures', 'tls');
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error('test/fixtures/tls not found above ' + __dirname);
  }
}

/** The loopback certificate, for a client that must trust the https server (`ca`). */
export function loopbackCa(): Buffer {
  return fs.readFileSync(path.join(tlsDir(), 'loopback.crt'));
}

export async function startLoopbackServer(handle: LoopbackHandler, options: LoopbackOptions = {}): Promise<LoopbackServer> {
  const listener = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  };
  const server: http.Server = options.tls
    ? https.createServer({ key: fs.readFileSync(path.join(tlsDir(), 'loopback.key')), cert: loopbackCa() }, listener)
    : http.createServer(listener);
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    server,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Answers `value` as JSON with its length. */
export function replyJson(res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A loopback port nothing listens on (a server's, just closed): connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const { port, close } = await startLoopbackServer(() => undefined);
  await close();
  return port;
}
