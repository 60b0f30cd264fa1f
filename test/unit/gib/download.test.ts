// GİB's archives from an address that misbehaves (src/gib/download.ts), over real HTTP on loopback: a
// Content-Length past the cap is refused before the body is read, a body that never ends is stopped at
// the cap, a body that stalls and an address that never answers are given up after their time limits.
// Each is named (the address and what happened) and leaves the installed rules and the storage as they were.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { checkForNewerGibPackage, downloadGibPackage, GibDownloadError, MAX_GIB_ARCHIVE_BYTES, type GibDownloadProblem } from '../../../src/gib/download';
import { GIB_RULES_FOLDER, installGibPackage } from '../../../src/gib/ruleStore';
import { startFileServer, type FileServer } from '../../support/fileServer';
import { gibArchives, NO_GIB_DATA } from '../../support/gibPackages';

const archives = gibArchives();
const skip = !archives && NO_GIB_DATA;
/** Short limits, so a stall is seen in a fraction of a second. */
const FAST = { responseMs: 300, stallMs: 300 };

/** A server standing in for a mirror, with the rules already installed from GİB's archives. */
async function setUp(): Promise<{ root: string; server: FileServer; installed: Buffer; closed: Promise<void>[]; written: { bytes: number } }> {
  const root = await mkdtemp(path.join(tmpdir(), 'gib-download-'));
  await installGibPackage(root, archives!.rules, archives!.schemas);
  const installed = await readFile(path.join(root, GIB_RULES_FOLDER, 'package.json'));
  const closed: Promise<void>[] = [];
  const written = { bytes: 0 };
  /** Records when the client drops the connection of `res`. */
  const watch = (res: ServerResponse) => closed.push(new Promise((resolve) => res.on('close', () => resolve())));
  const server = await startFileServer({
    '/r.zip': archives!.rules,
    '/s.zip': archives!.schemas,
    // Announces 5 GB, or one byte more than the cap, and sends a little: refused on the header.
    '/huge.zip': (_req, res) => {
      watch(res);
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': 5 * 1024 ** 3 });
      res.write(Buffer.alloc(1024));
    },
    '/just-over.zip': (_req, res) => {
      watch(res);
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': MAX_GIB_ARCHIVE_BYTES + 1 });
      res.write(Buffer.alloc(1024));
    },
    // No length, and bytes for as long as anyone reads.
    '/endless.zip': (_req, res) => {
      watch(res);
      res.writeHead(200, { 'content-type': 'application/zip' });
      const chunk = Buffer.alloc(64 * 1024, 0x50);
      const more = () => {
        while (!res.destroyed && res.write(chunk)) written.bytes += chunk.length;
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    },
    // The headers and a first kilobyte, then silence.
    '/stall.zip': (_req, res) => {
      watch(res);
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': 1_000_000 });
      res.write(Buffer.alloc(1024));
    },
    // Not even the headers.
    '/silent.zip': (_req, res) => void watch(res),
  });
  return { root, server, installed, closed, written };
}

/** The download fails with `problem` and a message naming the address; nothing installed, nothing left behind. */
async function refused(root: string, installed: Buffer, run: () => Promise<unknown>, url: string, problem: GibDownloadProblem, message: RegExp): Promise<void> {
  await assert.rejects(run(), (e: unknown) => {
    assert.ok(e instanceof GibDownloadError, String(e));
    assert.equal(e.url, url);
    assert.deepEqual(e.problem, problem);
    assert.match(e.message, message);
    return true;
  });
  assert.deepEqual(await readFile(path.join(root, GIB_RULES_FOLDER, 'package.json')), installed, 'the installed rules changed');
  assert.deepEqual(await readdir(path.join(root, GIB_RULES_FOLDER)), ['package.json'], 'a temporary download was left');
}

test('a Content-Length past the 64 MB cap is refused before the body is read, and the connection closed', { skip, timeout: 20_000 }, async () => {
  const { root, server, installed, closed } = await setUp();
  try {
    const url = `${server.url}/huge.zip`;
    await refused(root, installed, () => downloadGibPackage(root, { rules: url, schemas: `${server.url}/s.zip` }), url, { kind: 'tooLarge', limit: '64 MB', announced: '5 GB' }, /huge\.zip is larger than 64 MB \(it announced 5 GB\); nothing was read$/);
    assert.deepEqual(server.hits, ['/huge.zip'], 'the second archive was asked for after the first failed');
    const justOver = `${server.url}/just-over.zip`;
    await refused(root, installed, () => downloadGibPackage(root, { rules: `${server.url}/r.zip`, schemas: justOver }), justOver, { kind: 'tooLarge', limit: '64 MB', announced: '64.0 MB' }, /just-over\.zip is larger than 64 MB/);
    await Promise.all(closed);
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
});

test('a body that never ends is stopped at the cap, not read on', { skip, timeout: 20_000 }, async () => {
  const { root, server, installed, closed, written } = await setUp();
  try {
    const cap = 1024 * 1024;
    const url = `${server.url}/endless.zip`;
    await refused(root, installed, () => downloadGibPackage(root, { rules: `${server.url}/r.zip`, schemas: url }, { limits: { ...FAST, archiveBytes: cap } }), url, { kind: 'tooLarge', limit: '1 MB' }, /endless\.zip sent more than 1 MB; the download was stopped$/);
    await Promise.all(closed);
    // What the server got out before it saw the close: the cap plus what the sockets' buffers held.
    assert.ok(written.bytes < 16 * cap, `the server wrote ${written.bytes} bytes`);
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
});

test('a body that stalls and an address that never answers are given up after their time limits', { skip, timeout: 20_000 }, async () => {
  const { root, server, installed, closed } = await setUp();
  try {
    const stall = `${server.url}/stall.zip`;
    await refused(root, installed, () => downloadGibPackage(root, { rules: stall, schemas: `${server.url}/s.zip` }, { limits: FAST }), stall, { kind: 'stalled', seconds: 0.3 }, /stall\.zip sent nothing for 0\.3 s; the download was stopped$/);
    const silent = `${server.url}/silent.zip`;
    await refused(root, installed, () => downloadGibPackage(root, { rules: `${server.url}/r.zip`, schemas: silent }, { limits: FAST }), silent, { kind: 'noAnswer', seconds: 0.3 }, /silent\.zip did not answer within 0\.3 s$/);
    // "Check for newer rules" downloads the same way.
    await refused(root, installed, () => checkForNewerGibPackage(root, { rules: stall, schemas: `${server.url}/s.zip` }, { limits: FAST }), stall, { kind: 'stalled', seconds: 0.3 }, /stall\.zip sent nothing for 0\.3 s/);
    await Promise.all(closed);
    // The same limits let a whole archive through.
    assert.equal(await downloadGibPackage(root, { rules: `${server.url}/r.zip`, schemas: `${server.url}/s.zip` }, { limits: { ...FAST, archiveBytes: 2 * 1024 * 1024 } }), '20260312');
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
});

test('a Cancel while the body stalls is the caller\'s, not a time limit', { skip, timeout: 20_000 }, async () => {
  const { root, server, installed } = await setUp();
  try {
    const controller = new AbortController();
    const run = downloadGibPackage(root, { rules: `${server.url}/stall.zip`, schemas: `${server.url}/s.zip` }, { signal: controller.signal, limits: { responseMs: 10_000, stallMs: 10_000 } });
    setTimeout(() => controller.abort(), 200);
    await assert.rejects(run, (e: unknown) => !(e instanceof GibDownloadError) && (e as Error).name === 'AbortError');
    assert.deepEqual(await readFile(path.join(root, GIB_RULES_FOLDER, 'package.json')), installed);
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
});
