// GİB's rules in global storage: installed from the archives or an unpacked folder, read back whole,
// never half-replaced while another process installs; downloaded from a local server standing in
// for GİB's addresses; "Check for newer rules" installs only a newer release.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { GIB_RULES_FOLDER, installGibPackage, loadGibPackage } from '../../../src/gib/ruleStore';
import { checkForNewerGibPackage, downloadGibPackage, GibDownloadError } from '../../../src/gib/download';
import { createGibEngine } from '../../../src/gib/engine';
import { readGibFiles } from '../../../src/gib/rulesSource';
import { engineFrom } from '../../../src/gib/engineSource';
import { readSchematron, SCHEMATRON_READER } from '../../../src/gib/schematron';
import { gibArchives, NO_GIB_DATA } from '../../support/gibPackages';

const archives = gibArchives();
const skip = !archives && NO_GIB_DATA;
const fixture = path.join(__dirname, '../../../../test/fixtures/gib/invoice.xml');

async function tempRoot(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'gib-store-'));
}

test('installed from the archives: the release, and an engine from the store that finds what the archives find', { skip }, async () => {
  const root = await tempRoot();
  try {
    assert.equal(await loadGibPackage(root), undefined, 'nothing installed yet');
    assert.equal(await installGibPackage(root, archives!.rules, archives!.schemas), '20260312');
    const installed = await loadGibPackage(root);
    assert.equal(installed?.release, '20260312');
    assert.deepEqual(installed?.source, { rules: archives!.rules, schemas: archives!.schemas });
    assert.deepEqual(await readdir(path.join(root, GIB_RULES_FOLDER)), ['package.json'], 'one file, no temporary left, no lock left');
    const text = (await readFile(fixture, 'utf8')).replace('<cbc:ID>NLV2026000000001</cbc:ID>', '<cbc:ID>NLV-1</cbc:ID>');
    const fromStore = await createGibEngine(installed!.rules, installed!.schemas).validate(text);
    const fromArchives = await createGibEngine(await readGibFiles(archives!.rules, () => true), await readGibFiles(archives!.schemas, (n) => n.endsWith('.xsd'))).validate(text);
    assert.deepEqual(fromStore, fromArchives);
    assert.ok(fromStore.findings.some((f) => f.kind === 'rule' && /ABC2009123456789/.test(f.message)));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test("the Schematron is stored as read at install and the worker's engine uses it; a package without it, or read by another reader, is read from its files", { skip }, async () => {
  const root = await tempRoot();
  try {
    await installGibPackage(root, archives!.rules, archives!.schemas);
    const file = path.join(root, GIB_RULES_FOLDER, 'package.json');
    const stored = JSON.parse(await readFile(file, 'utf8'));
    const fresh = JSON.parse(JSON.stringify(readSchematron(await readGibFiles(archives!.rules, (n) => n.includes('schematron/')))));
    assert.equal(stored.format, 1, 'still format 1: an older version reads it');
    assert.equal(stored.schematronReader, SCHEMATRON_READER);
    assert.deepEqual(stored.schematron, fresh);
    assert.deepEqual((await loadGibPackage(root, SCHEMATRON_READER))?.schematron, fresh);
    assert.equal((await loadGibPackage(root))?.schematron, undefined, 'given only to the reader that made it');

    const text = (await readFile(fixture, 'utf8')).replace('<cbc:ID>NLV2026000000001</cbc:ID>', '<cbc:ID>NLV-1</cbc:ID>');
    const expected = await createGibEngine(await readGibFiles(archives!.rules, () => true), await readGibFiles(archives!.schemas, (n) => n.endsWith('.xsd'))).validate(text);
    assert.ok(expected.findings.some((f) => /ABC2009123456789/.test(f.message)));
    assert.deepEqual(await (await engineFrom({ storageRoot: root }))!.validate(text), expected);

    // The engine takes the stored reading, not the files: a message changed there shows.
    const marked = JSON.parse(JSON.stringify(stored).replace(/ABC2009123456789/g, 'STORED-READING'));
    await writeFile(file, JSON.stringify(marked));
    const fromStored = await (await engineFrom({ storageRoot: root }))!.validate(text);
    assert.ok(fromStored.findings.some((f) => /STORED-READING/.test(f.message)), fromStored.findings.map((f) => f.message).join('\n'));
    // Read by another version of the reader, or stored by a version that kept none: read from the files.
    for (const older of [{ ...marked, schematronReader: SCHEMATRON_READER + 1 }, { ...marked, schematronReader: undefined, schematron: undefined }]) {
      await writeFile(file, JSON.stringify(older));
      assert.equal((await loadGibPackage(root, SCHEMATRON_READER))?.schematron, undefined);
      assert.deepEqual(await (await engineFrom({ storageRoot: root }))!.validate(text), expected);
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('installed from unpacked folders; what is not GİB\'s package is refused, naming what is missing', { skip }, async () => {
  const root = await tempRoot();
  try {
    const rules = await readGibFiles(archives!.rules, (n) => n.includes('schematron/'));
    const schemas = await readGibFiles(archives!.schemas, (n) => n.includes('xsdrt/'));
    for (const [set, dir] of [[rules, 'r'], [schemas, 's']] as const) {
      for (const [name, content] of set.files) {
        await mkdir(path.join(root, dir, path.dirname(name)), { recursive: true });
        await writeFile(path.join(root, dir, name), content);
      }
    }
    assert.equal(await installGibPackage(path.join(root, 'store'), path.join(root, 'r'), path.join(root, 's')), '20260312');
    await assert.rejects(installGibPackage(path.join(root, 'store2'), path.join(root, 's'), path.join(root, 's')), /has no UBL-TR_Main_Schematron\.xml/);
    await assert.rejects(installGibPackage(path.join(root, 'store2'), path.join(root, 'r'), path.join(root, 'r')), /has no xsdrt\/maindoc\/UBL-Invoice-2\.1\.xsd/);
    await assert.rejects(installGibPackage(path.join(root, 'store2'), path.join(root, 'nothing'), path.join(root, 's')), /nothing does not exist/);
    assert.equal(await loadGibPackage(path.join(root, 'store2')), undefined, 'a refused install leaves nothing');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('a reader while two processes install over and over always reads a whole package', { skip }, async () => {
  const root = await tempRoot();
  try {
    await installGibPackage(root, archives!.rules, archives!.schemas);
    // Two other processes install the same package 5 times each (the built module, not this bundle).
    const script = `
      const mod = require(process.argv[1]);
      (async () => { for (let i = 0; i < 5; i++) await mod.installGibPackage(process.argv[2], process.argv[3], process.argv[4]); })().catch((e) => { console.error(e); process.exit(1); });`;
    const children = [0, 1].map(() => spawn(process.execPath, ['-e', script, path.join(__dirname, 'ruleStoreModule.js'), root, archives!.rules, archives!.schemas], { stdio: ['ignore', 'inherit', 'inherit'] }));
    const done = Promise.all(children.map((c) => new Promise<number | null>((resolve) => c.on('exit', resolve))));
    let reads = 0;
    let running = true;
    void done.then(() => (running = false));
    while (running) {
      const p = await loadGibPackage(root);
      assert.equal(p?.release, '20260312');
      assert.ok(p!.rules.files.size >= 4 && p!.schemas.files.size >= 19, `${p!.rules.files.size} rule files, ${p!.schemas.files.size} schema files`);
      reads++;
    }
    assert.deepEqual(await done, [0, 0]);
    assert.ok(reads > 0);
    assert.deepEqual((await readdir(path.join(root, GIB_RULES_FOLDER))).sort(), ['package.json']);
    console.log(`${reads} whole reads while two processes installed 5 times each`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

async function serve(files: Record<string, string>): Promise<{ server: Server; url: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer(async (req, res) => {
    hits.push(req.url ?? '');
    const file = files[req.url ?? ''];
    if (!file) {
      res.writeHead(404).end('not here');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/zip' }).end(await readFile(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

test('Download: both archives from the addresses given, installed; a wrong address is named', { skip }, async () => {
  const root = await tempRoot();
  const { server, url, hits } = await serve({ '/r.zip': archives!.rules, '/s.zip': archives!.schemas });
  try {
    const seen: string[] = [];
    const release = await downloadGibPackage(root, { rules: `${url}/r.zip`, schemas: `${url}/s.zip` }, { onArchive: (which, bytes) => seen.push(`${which} ${bytes}`) });
    assert.equal(release, '20260312');
    assert.deepEqual(hits, ['/r.zip', '/s.zip']);
    assert.equal(seen.length, 2);
    assert.deepEqual((await loadGibPackage(root))?.source, { rules: `${url}/r.zip`, schemas: `${url}/s.zip` });
    await assert.rejects(downloadGibPackage(root, { rules: `${url}/gone.zip`, schemas: `${url}/s.zip` }), (e: Error) => e instanceof GibDownloadError && e.message === `${url}/gone.zip answered 404 Not Found`);
    assert.deepEqual(await readdir(path.join(root, GIB_RULES_FOLDER)), ['package.json'], 'the failed download left no temporary folder');
  } finally {
    server.close();
    await rm(root, { recursive: true, force: true });
  }
});

test('Check for newer rules: the same release is not installed again; a newer one is', { skip }, async () => {
  const root = await tempRoot();
  const { server, url } = await serve({ '/r.zip': archives!.rules, '/s.zip': archives!.schemas });
  try {
    const urls = { rules: `${url}/r.zip`, schemas: `${url}/s.zip` };
    assert.deepEqual(await checkForNewerGibPackage(root, urls), { installed: undefined, available: '20260312', updated: true });
    const first = (await loadGibPackage(root))!.installedAt;
    assert.deepEqual(await checkForNewerGibPackage(root, urls), { installed: '20260312', available: '20260312', updated: false });
    assert.equal((await loadGibPackage(root))!.installedAt, first, 'not installed again');
    // An installed package of an older release is replaced.
    const stored = JSON.parse(await readFile(path.join(root, GIB_RULES_FOLDER, 'package.json'), 'utf8'));
    stored.release = '20250101';
    await writeFile(path.join(root, GIB_RULES_FOLDER, 'package.json'), JSON.stringify(stored));
    assert.deepEqual(await checkForNewerGibPackage(root, urls), { installed: '20250101', available: '20260312', updated: true });
  } finally {
    server.close();
    await rm(root, { recursive: true, force: true });
  }
});
