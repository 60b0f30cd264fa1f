// A scripted HTTP server on a free loopback port, for the API layer's tests over real HTTP (never a
// mocked fetch): each request's body is read whole and handed, with the request, to the test's handler.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export type LoopbackHandler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`, with no trailing slash. */
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
}

export async function startLoopbackServer(handle: LoopbackHandler, options: LoopbackOptions = {}): Promise<LoopbackServer> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
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
