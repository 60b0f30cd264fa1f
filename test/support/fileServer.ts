// A local HTTP server (127.0.0.1, a free port) serving files by path, standing in for a download
// address in tests (GİB's archives, a mirror): each path answers a file's bytes, bytes given, or a
// handler of its own (a stall, a cut-short body); anything else 404. It records the paths asked for.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';

export type Served = string | Buffer | ((req: IncomingMessage, res: ServerResponse) => void);

export interface FileServer {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** The paths asked for, in order. */
  readonly hits: string[];
  /** What each path serves (a file path, bytes, or a handler); may be changed between requests. */
  readonly routes: Map<string, Served>;
  close(): Promise<void>;
}

export async function startFileServer(routes: Record<string, Served> = {}): Promise<FileServer> {
  const table = new Map(Object.entries(routes));
  const hits: string[] = [];
  const server = createServer((req, res) => {
    const at = req.url ?? '';
    hits.push(at);
    const served = table.get(at);
    if (served === undefined) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    if (typeof served === 'function') return served(req, res);
    const body = typeof served === 'string' ? readFile(served) : Promise.resolve(served);
    body.then(
      (bytes) => res.writeHead(200, { 'content-type': 'application/zip', 'content-length': bytes.length }).end(bytes),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    routes: table,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
