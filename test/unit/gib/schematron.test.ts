// GİB's Schematron read as published: includes by fragment, extends across patterns, the rules
// outside any pattern, the code-list lets, the release; the same from the ZIP and from a folder.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { readGibFiles, GibSourceError, type GibFileSet } from '../../../src/gib/rulesSource';
import { OUTSIDE_PATTERNS, readSchematron, releaseOf } from '../../../src/gib/schematron';
import { gibArchives, NO_GIB_DATA } from '../../support/gibPackages';

const archives = gibArchives();
const wantRules = (n: string): boolean => n.includes('schematron/');

test("GİB's package is read as published: 11 patterns and the 9 rules outside them, 484 asserts after extends", { skip: !archives && NO_GIB_DATA }, async () => {
  const rules = readSchematron(await readGibFiles(archives!.rules, wantRules));
  assert.equal(rules.release, '20260312');
  const ids = rules.patterns.map((p) => p.id);
  assert.deepEqual(ids, ['codes', 'abstracts', 'document', 'header', 'package', 'invoice', 'applicationresponse', 'processuseraccount', 'canceluseraccount', 'despatchadvice', 'receiptadvice', OUTSIDE_PATTERNS]);
  const concrete = rules.patterns.filter((p) => p.id !== OUTSIDE_PATTERNS).reduce((n, p) => n + p.rules.length, 0);
  assert.equal(concrete, 110, 'concrete rules inside patterns');
  const outside = rules.patterns.find((p) => p.id === OUTSIDE_PATTERNS)!;
  assert.deepEqual(outside.rules.map((r) => r.context), ['//cbc:IdentificationCode', '//cbc:SourceCurrencyCode', '//cbc:TargetCurrencyCode', '//cbc:CurrencyCode', '//@currencyID', '//@unitCode', '//cbc:ChannelCode', '//cbc:IssueDate', '//@mimeCode']);
  const asserts = rules.patterns.reduce((n, p) => n + p.rules.reduce((m, r) => m + r.asserts.length, 0), 0);
  assert.equal(asserts, 484);
  // The abstract rules are in the included pattern "abstracts"; the invoice pattern extends them.
  const invoice = rules.patterns.find((p) => p.id === 'invoice')!.rules.find((r) => r.context === 'inv:Invoice')!;
  assert.ok(invoice.asserts.some((a) => a.fromRule === 'InvoiceIDCheck' && a.test.startsWith('matches(cbc:ID')), 'InvoiceIDCheck expanded into inv:Invoice');
  // The code lists are the lets of the included pattern "codes".
  const lets = new Map(rules.lets.map((l) => [l.name, l.value]));
  assert.match(lets.get('InvoiceTypeCodeList')!, /,SATIS,IADE,/);
  assert.equal(lets.get('type'), 'efatura');
  assert.ok(rules.lets.length >= 40, `${rules.lets.length} lets`);
  assert.equal(rules.namespaces.inv, 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2');
});

test('the unpacked folder reads the same as the ZIP', { skip: !archives && NO_GIB_DATA }, async () => {
  const zipSet = await readGibFiles(archives!.rules, wantRules);
  const dir = await mkdtemp(path.join(tmpdir(), 'gib-folder-'));
  try {
    for (const [name, content] of zipSet.files) {
      await mkdir(path.join(dir, path.dirname(name)), { recursive: true });
      await writeFile(path.join(dir, name), content);
    }
    const fromFolder = readSchematron(await readGibFiles(dir, wantRules));
    assert.deepEqual(fromFolder, readSchematron(zipSet));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

function fileSet(files: Record<string, string>): GibFileSet {
  return { origin: 'test', files: new Map(Object.entries(files).map(([k, v]) => [k, Buffer.from(v)])) };
}

const SCH = 'xmlns:sch="http://purl.oclc.org/dsdl/schematron"';

test('an include names a fragment by id; a missing file or fragment is named in the error', () => {
  const main = `<sch:schema ${SCH}><sch:include href="Lib.xml#lib"/><sch:pattern id="p"><sch:rule context="a"><sch:extends rule="R"/></sch:rule></sch:pattern></sch:schema>`;
  const lib = `<sch:schema ${SCH}><sch:pattern id="other"><sch:rule abstract="true" id="X"><sch:assert test="false()">x</sch:assert></sch:rule></sch:pattern><sch:pattern id="lib"><sch:rule abstract="true" id="R"><sch:assert test="b">b is required</sch:assert></sch:rule></sch:pattern></sch:schema>`;
  const rules = readSchematron(fileSet({ 's/UBL-TR_Main_Schematron.xml': main, 's/Lib.xml': lib }));
  assert.deepEqual(rules.patterns.map((p) => p.id), ['lib', 'p'], 'only the fragment is included');
  assert.deepEqual(rules.patterns[1].rules[0].asserts.map((a) => [a.test, a.fromRule]), [['b', 'R']]);
  assert.throws(() => readSchematron(fileSet({ 's/UBL-TR_Main_Schematron.xml': main })), (e: Error) => e instanceof GibSourceError && /includes Lib\.xml, which is missing/.test(e.message));
  assert.throws(() => readSchematron(fileSet({ 's/UBL-TR_Main_Schematron.xml': main, 's/Lib.xml': lib.replace('id="lib"', 'id="else"') })), /has no element with id "lib"/);
  assert.throws(() => readSchematron(fileSet({ 'x.xml': main })), /no UBL-TR_Main_Schematron\.xml/);
});

test('extends reaches an abstract rule that itself extends; an unknown one is an error', () => {
  const main = `<sch:schema ${SCH}><sch:pattern id="p"><sch:rule abstract="true" id="A"><sch:extends rule="B"/><sch:assert test="a">a</sch:assert></sch:rule></sch:pattern><sch:pattern id="q"><sch:rule abstract="true" id="B"><sch:assert test="b">b</sch:assert></sch:rule><sch:rule context="x"><sch:extends rule="A"/><sch:report test="c">c</sch:report></sch:rule></sch:pattern></sch:schema>`;
  const rules = readSchematron(fileSet({ 'UBL-TR_Main_Schematron.xml': main }));
  const rule = rules.patterns[1].rules[0];
  assert.deepEqual(rule.asserts.map((a) => [a.kind, a.test, a.fromRule]), [['assert', 'b', 'B'], ['assert', 'a', 'A'], ['report', 'c', undefined]]);
  assert.throws(() => readSchematron(fileSet({ 'UBL-TR_Main_Schematron.xml': main.replace('rule="B"', 'rule="Nope"') })), /extends "Nope", which no abstract rule defines/);
});

test("the release is History.txt's newest entry", () => {
  const history = '20170317\n--------\n1) x\n\n20260312\r\n----------\n1) y\n\n20251001\n---\n';
  assert.equal(releaseOf(fileSet({ 'e-FaturaPaketi/schematron/History.txt': history })), '20260312');
  assert.equal(releaseOf(fileSet({})), undefined);
});
