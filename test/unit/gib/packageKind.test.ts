// Which of GİB's packages a file or folder is, from the names it holds: the two archives as GİB
// publishes them, a cut-short download, a file that is not a ZIP; and the download refusing, before
// anything is installed, an address that sends the wrong package or something that is not a ZIP.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { inspectGibSource } from '../../../src/gib/packageKind';
import { downloadGibPackage, GibDownloadError, sweepStaleDownloads } from '../../../src/gib/download';
import { GIB_DEFAULT_URLS } from '../../../src/gib/gibAddresses';
import { GIB_RULES_FOLDER, installGibPackage, loadGibPackage } from '../../../src/gib/ruleStore';
import { readGibFiles } from '../../../src/gib/rulesSource';
import { damagedZip } from '../../support/damagedZip';
import { gibArchives, NO_GIB_DATA } from '../../support/gibPackages';

const archives = gibArchives();
const skip = !archives && NO_GIB_DATA;
const root = path.resolve(__dirname, '../../../..');

test('the settings\' defaults in package.json are GİB\'s addresses', async () => {
  const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
  const properties = manifest.contributes.configuration.properties;
  assert.equal(properties['nilvera.gibRules.rulesUrl'].default, GIB_DEFAULT_URLS.rules);
  assert.equal(properties['nilvera.gibRules.schemasUrl'].default, GIB_DEFAULT_URLS.schemas);
  // Only user settings count: a folder's settings cannot point the download elsewhere.
  assert.equal(properties['nilvera.gibRules.rulesUrl'].scope, 'application');
  assert.equal(properties['nilvera.gibRules.schemasUrl'].scope, 'application');
});

test('GİB\'s two archives are told apart; a cut-short ZIP and a missing path are said to be so', { skip }, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'gib-kind-'));
  try {
    assert.deepEqual(await inspectGibSource(archives!.rules), { rules: true, history: true, schemas: false, missingSchema: 'xsdrt/maindoc/UBL-Invoice-2.1.xsd' });
    assert.deepEqual(await inspectGibSource(archives!.schemas), { rules: false, history: false, schemas: true });
    const bytes = await readFile(archives!.rules);
    await writeFile(path.join(dir, 'cut.zip'), bytes.subarray(0, bytes.length - 1000));
    const cut = await inspectGibSource(path.join(dir, 'cut.zip'));
    assert.equal(cut.unreadable, 'notZip');
    // Its directory whole, the Schematron's data damaged: listed as GİB's rules, refused when verified.
    await writeFile(path.join(dir, 'damaged.zip'), await damagedZip(bytes, 'schematron/UBL-TR_Main_Schematron.xml'));
    assert.equal((await inspectGibSource(path.join(dir, 'damaged.zip'))).rules, true);
    const damaged = await inspectGibSource(path.join(dir, 'damaged.zip'), { verify: true });
    assert.equal(damaged.unreadable, 'notZip');
    assert.match(damaged.detail ?? '', /UBL-TR_Main_Schematron\.xml/);
    assert.deepEqual(await inspectGibSource(archives!.rules, { verify: true }), await inspectGibSource(archives!.rules));
    await writeFile(path.join(dir, 'page.zip'), '<html>Bakım çalışması</html>');
    assert.equal((await inspectGibSource(path.join(dir, 'page.zip'))).unreadable, 'notZip');
    assert.equal((await inspectGibSource(path.join(dir, 'nothing'))).unreadable, 'missing');
    // Both unpacked into one folder: one source that is both packages.
    const unpacked = path.join(dir, 'unpacked');
    for (const zip of [archives!.rules, archives!.schemas]) {
      for (const [name, content] of (await readGibFiles(zip, (n) => n.includes('schematron/') || n.includes('xsdrt/'))).files) {
        await mkdir(path.join(unpacked, path.dirname(name)), { recursive: true });
        await writeFile(path.join(unpacked, name), content);
      }
    }
    assert.deepEqual(await inspectGibSource(unpacked), { rules: true, history: true, schemas: true });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('Download refuses the wrong package at an address, and what is not a ZIP, before installing anything', { skip }, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'gib-kind-'));
  const bytes = { rules: await readFile(archives!.rules), schemas: await readFile(archives!.schemas) };
  const server = createServer((req, res) => {
    const body = req.url === '/r.zip' ? bytes.rules : req.url === '/s.zip' ? bytes.schemas : req.url === '/cut.zip' ? bytes.rules.subarray(0, 5000) : undefined;
    if (body) res.writeHead(200).end(body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await installGibPackage(dir, archives!.rules, archives!.schemas);
    const before = await readFile(path.join(dir, GIB_RULES_FOLDER, 'package.json'));
    const failure = async (rules: string, schemas: string) => {
      try {
        await downloadGibPackage(dir, { rules: `${url}${rules}`, schemas: `${url}${schemas}` });
      } catch (e) {
        assert.ok(e instanceof GibDownloadError, String(e));
        return { url: e.url, which: e.which, problem: e.problem };
      }
      return assert.fail('the download succeeded');
    };
    // The XSD package where the rules belong, and the other way round.
    assert.deepEqual(await failure('/s.zip', '/s.zip'), { url: `${url}/s.zip`, which: 'rules', problem: { kind: 'wrongArchive', missing: 'schematron/UBL-TR_Main_Schematron.xml' } });
    assert.deepEqual(await failure('/r.zip', '/r.zip'), { url: `${url}/r.zip`, which: 'schemas', problem: { kind: 'wrongArchive', missing: 'xsdrt/maindoc/UBL-Invoice-2.1.xsd' } });
    const cut = await failure('/r.zip', '/cut.zip');
    assert.equal(cut.problem.kind, 'notZip');
    assert.deepEqual([cut.url, cut.which], [`${url}/cut.zip`, 'schemas']);
    assert.deepEqual(await failure('/gone.zip', '/s.zip'), { url: `${url}/gone.zip`, which: 'rules', problem: { kind: 'status', status: 404 } });
    assert.deepEqual(await readFile(path.join(dir, GIB_RULES_FOLDER, 'package.json')), before, 'the installed package is untouched');
    assert.deepEqual(await readdir(path.join(dir, GIB_RULES_FOLDER)), ['package.json'], 'no temporary folder left');
    assert.equal((await loadGibPackage(dir))?.release, '20260312');
  } finally {
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('Download names an address nothing answers at as unreachable, with the system\'s reason', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'gib-kind-'));
  // A port that was just free: nothing listens there.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  try {
    await assert.rejects(downloadGibPackage(dir, { rules: `http://127.0.0.1:${port}/r.zip`, schemas: `http://127.0.0.1:${port}/s.zip` }), (e: unknown) => {
      assert.ok(e instanceof GibDownloadError);
      assert.deepEqual(e.problem, { kind: 'unreachable', detail: 'ECONNREFUSED' });
      return true;
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('what a crashed download left is swept; another live process\'s download is not', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'gib-kind-'));
  try {
    const folder = path.join(dir, GIB_RULES_FOLDER);
    // A pid no process has (above the usual maximum), and this test runner's parent, which is alive.
    for (const name of ['download-4194399-abc', `download-${process.ppid}-def`, 'package.json']) await mkdir(path.join(folder, name), { recursive: true });
    await sweepStaleDownloads(dir);
    assert.deepEqual((await readdir(folder)).sort(), [`download-${process.ppid}-def`, 'package.json']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
