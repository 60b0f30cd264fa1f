// fontoxpath's parsed expressions kept beside the installed package (src/gib/parsedXPath.ts,
// parsedXPathFile.ts): the worker writes them after its first check, the next worker parses (almost)
// nothing from text and finds the same; a cache of another key or a damaged one is ignored and replaced,
// never an error; an install removes it. (The oracle's agreement with the cache present: oracle.test.ts.)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { engineFrom } from '../../../src/gib/engineSource';
import { installGibPackage } from '../../../src/gib/ruleStore';
import { parsedXPathFile, parsedXPathKey, readParsedXPath } from '../../../src/gib/parsedXPathFile';
import { findGibWorkerFile, GibWorkerClient } from '../../../src/gib/workerClient';
import type { GibEngine } from '../../../src/gib/engine';
import { gibArchives, NO_GIB_DATA } from '../../support/gibPackages';

const archives = gibArchives();
const workerFile = findGibWorkerFile();
const skip = !archives && NO_GIB_DATA;
const invoice = readFileSync(path.join(__dirname, '../../../../test/fixtures/gib/invoice.xml'), 'utf8');
const broken = invoice.replace('<cbc:ID>NLV2026000000001</cbc:ID>', '<cbc:ID>NLV-1</cbc:ID>').replace('<cbc:InvoiceTypeCode>SATIS<', '<cbc:InvoiceTypeCode>IADE<');

async function installed(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'gib-parsed-xpath-'));
  await installGibPackage(root, archives!.rules, archives!.schemas);
  return root;
}

async function fromStore(root: string): Promise<GibEngine> {
  const engine = await engineFrom({ storageRoot: root });
  assert.ok(engine, 'an engine from the store');
  return engine;
}

test('the worker writes the cache after its first check; the next worker parses nothing from text and finds the same', { skip: skip || (!workerFile && 'dist/gibWorker.js is not built (npm run build)') }, async () => {
  const root = await installed();
  try {
    const file = parsedXPathFile(root);
    assert.equal(existsSync(file), false, 'no cache before a check');
    const client = await GibWorkerClient.start({ storageRoot: root });
    let inWorker;
    try {
      assert.equal(client.inWorker, true);
      inWorker = await client.validate('a.xml', broken);
      for (const until = Date.now() + 20_000; !existsSync(file); await new Promise((r) => setTimeout(r, 20))) {
        assert.ok(Date.now() < until, 'the worker wrote the cache after the check');
      }
    } finally {
      await client.dispose();
    }
    assert.ok(inWorker!.findings.some((f) => /ABC2009123456789/.test(f.message)));
    const stored = JSON.parse(await readFile(file, 'utf8'));
    assert.equal(stored.key, parsedXPathKey('20260312'));
    assert.ok(Object.keys(stored.entries).length >= 10, `${Object.keys(stored.entries).length} expressions stored`);
    assert.deepEqual(await readdir(path.dirname(file)), ['package.json', 'parsed-xpath.json'], 'no temporary file left');

    const next = await fromStore(root);
    assert.deepEqual(await next.validate(broken), inWorker);
    assert.deepEqual([...next.xpath!.parsedFromText], [], 'every expression from the stored parsed form');

    await rm(file);
    const without = await fromStore(root);
    assert.deepEqual(await without.validate(broken), inWorker);
    assert.ok(without.xpath!.parsedFromText.size >= 10, `without the cache ${without.xpath!.parsedFromText.size} expressions parsed from text`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('a cache of another key, or a damaged one, is ignored (the same findings, no error) and replaced by the next write', { skip }, async () => {
  const root = await installed();
  try {
    const file = parsedXPathFile(root);
    const first = await fromStore(root);
    const expected = await first.validate(broken);
    await first.storeParsedXPath!();
    const good = JSON.parse(await readFile(file, 'utf8')) as { key: string; entries: Record<string, unknown> };
    // Each text given another's parsed form: used, this gives other findings (the test can fail).
    const texts = Object.keys(good.entries);
    const poisoned = Object.fromEntries(texts.map((t, i) => [t, good.entries[texts[(i + 1) % texts.length]]]));
    await writeFile(file, JSON.stringify({ key: good.key, entries: poisoned }));
    const fromPoisoned = await (await fromStore(root)).validate(broken).catch((e: Error) => e);
    assert.notDeepEqual(fromPoisoned, expected, 'a poisoned cache of the right key is used');

    const others = [
      JSON.stringify({ key: parsedXPathKey('20250101'), entries: poisoned }),
      JSON.stringify({ key: good.key.replace(/fontoxpath \S+/, 'fontoxpath 0.0.1'), entries: poisoned }),
      JSON.stringify({ key: good.key.replace(/format \d+/, 'format 999'), entries: poisoned }),
      JSON.stringify(good).slice(0, 5000),
      JSON.stringify({ key: good.key, entries: Object.fromEntries(texts.map((t) => [t, ['module', { x: 1 }, 7]])) }),
      'not JSON',
    ];
    for (const content of others) {
      await writeFile(file, content);
      const engine = await fromStore(root);
      assert.deepEqual(await engine.validate(broken), expected, content.slice(0, 80));
      await engine.storeParsedXPath!();
      assert.equal(JSON.parse(await readFile(file, 'utf8')).key, good.key, `replaced: ${content.slice(0, 80)}`);
      assert.equal((await readParsedXPath(root, '20260312')).size, texts.length);
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('an install removes the cache; a cache stored for another release is not read', { skip }, async () => {
  const root = await installed();
  try {
    const engine = await fromStore(root);
    await engine.validate(invoice);
    await engine.storeParsedXPath!();
    assert.ok((await readParsedXPath(root, '20260312')).size > 0);
    assert.equal((await readParsedXPath(root, '20260313')).size, 0, 'keyed by the release');
    await installGibPackage(root, archives!.rules, archives!.schemas);
    assert.equal(existsSync(parsedXPathFile(root)), false, 'the install removed it');
    assert.deepEqual(await readdir(path.dirname(parsedXPathFile(root))), ['package.json']);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
