// The GİB rules worker (dist/gibWorker.js) through its client: the rules from the store, the verdict
// equal to the engine's in this thread, a document edited while its previous text waits validated
// once at its latest text (the text being checked stopped in the worker), no rules installed said plainly.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { engineFrom } from '../../../src/gib/engineSource';
import { installGibPackage } from '../../../src/gib/ruleStore';
import { findGibWorkerFile, GibWorkerClient } from '../../../src/gib/workerClient';
import { gibArchives, NO_GIB_DATA } from '../../support/gibPackages';

const archives = gibArchives();
const workerFile = findGibWorkerFile();
const skip = (!archives && NO_GIB_DATA) || (!workerFile && 'dist/gibWorker.js is not built (npm run build)');
const invoice = readFileSync(path.join(__dirname, '../../../../test/fixtures/gib/invoice.xml'), 'utf8');
const broken = invoice.replace('<cbc:ID>NLV2026000000001</cbc:ID>', '<cbc:ID>NLV-1</cbc:ID>');

test('the worker validates with the installed rules, as the engine does in this thread', { skip }, async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'gib-worker-'));
  const clients: GibWorkerClient[] = [];
  try {
    await installGibPackage(root, archives!.rules, archives!.schemas);
    const inWorker = await GibWorkerClient.start({ storageRoot: root });
    const inThread = await GibWorkerClient.start({ storageRoot: root }, { inThread: engineFrom });
    clients.push(inWorker, inThread);
    assert.equal(inWorker.inWorker, true);
    assert.equal(existsSync(workerFile!), true);
    assert.deepEqual(inWorker.info, { release: '20260312', hasRules: true, hasSchemas: true });
    const a = await inWorker.validate('a.xml', broken);
    const b = await inThread.validate('a.xml', broken);
    assert.deepEqual(a, b);
    assert.ok(a!.findings.some((f) => f.kind === 'rule' && f.source === 'GİB rules 20260312' && /ABC2009123456789/.test(f.message)));
  } finally {
    for (const c of clients) await c.dispose();
    await rm(root, { recursive: true, force: true });
  }
});

test('typing: the texts waiting for one document are superseded by its latest, the one in the worker is stopped there; other documents keep theirs', { skip }, async () => {
  const client = await GibWorkerClient.start({ rules: archives!.rules, schemas: archives!.schemas });
  try {
    const first = client.validate('a.xml', invoice); // sent at once
    const stale = client.validate('a.xml', broken); // waits
    const other = client.validate('b.xml', broken); // waits, another document
    const latest = client.validate('a.xml', invoice.replace('>SATIS<', '>YANLIS<')); // supersedes `stale`, stops `first`
    assert.equal(await stale, undefined);
    assert.equal(await first, undefined, 'the text in the worker was stopped (it was asked to before its first step ended)');
    assert.ok((await other)!.findings.some((f) => /ABC2009123456789/.test(f.message)));
    assert.ok((await latest)!.findings.some((f) => /InvoiceTypeCode/.test(f.message) && /YANLIS/.test(f.message)), (await latest)!.findings.map((f) => f.message).join('\n'));
  } finally {
    await client.dispose();
  }
});

test('another document arriving does not stop the one in the worker', { skip }, async () => {
  const client = await GibWorkerClient.start({ rules: archives!.rules, schemas: archives!.schemas });
  try {
    const first = client.validate('a.xml', broken); // sent at once
    const other = client.validate('b.xml', invoice);
    assert.ok((await first)!.findings.some((f) => /ABC2009123456789/.test(f.message)));
    assert.deepEqual((await other)!.findings.filter((f) => !f.draft), []);
  } finally {
    await client.dispose();
  }
});

test('no rules installed: the worker says so, and validating answers nothing', { skip }, async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'gib-worker-empty-'));
  const client = await GibWorkerClient.start({ storageRoot: root });
  try {
    assert.deepEqual(client.info, { release: undefined, hasRules: false, hasSchemas: false });
    assert.equal(await client.validate('a.xml', invoice), undefined);
  } finally {
    await client.dispose();
    await rm(root, { recursive: true, force: true });
  }
});

test('disposed (new rules installed): the request in the worker and those waiting are answered as superseded, none waits forever', { skip, timeout: 60_000 }, async () => {
  const client = await GibWorkerClient.start({ rules: archives!.rules, schemas: archives!.schemas });
  const inWorker = client.validate('a.xml', invoice); // sent at once
  const waiting = client.validate('b.xml', broken);
  await client.dispose();
  assert.deepEqual(await Promise.all([inWorker, waiting]), [undefined, undefined]);
  assert.equal(await client.validate('c.xml', invoice), undefined, 'a disposed client checks nothing more');
});
