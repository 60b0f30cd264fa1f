// The structured view and the editor say the same about every tax number: on each fixture of
// test/fixtures/ubl/ (one per document type and per case of the editor's checks), the numbers the view
// shows with their party roles, and the findings it shows at them (severity, code, role, number and the
// English message), are the ones in the <name>.expected.txt beside it, which the editor's own test
// (test/unit/editor/ublFixtures.test.ts) holds the editor to. Then, with registry lists downloaded, the view's
// findings against the editor's (scanUbl + documentFindings) run on the same text and lists.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { scanUbl } from '../../../../src/editor/diagnostics/ublScan';
import { documentFindings, type RegistryLookups } from '../../../../src/editor/diagnostics/rules';
import { findingMessage, type Translator } from '../../../../src/editor/diagnostics/messages';
import type { RegistryDocumentType } from '../../../../src/domain/ubl/documentTypes';
import { readDocument, type RegistryList } from '../../../../src/preview/model/readDocument';
import type { PartyIdentification, StructuredModel } from '../../../../src/preview/model/types';
import type { OfflineTaxpayer } from '../../../../src/registry/offlineLookup';

const dir = path.resolve(__dirname, '..', '..', '..', '..', '..', 'test', 'fixtures', 'ubl');
const english: Translator = { t: (message, ...args) => message.replace(/\{(\d+)\}/g, (_m, i: string) => String(args[Number(i)])) };
const fixtures = fs.readdirSync(dir).filter((f) => f.endsWith('.xml')).sort();
/** Half-typed on purpose (an unclosed CDATA): the editor scans it, the view says where it stops being XML. */
const NOT_WELL_FORMED = new Set(['invoice-unclosed-cdata.xml']);

/** The `number` and `finding` lines of an expected file, without their positions. */
function expectedOf(name: string): { numbers: string[]; findings: string[] } {
  const lines = fs.readFileSync(path.join(dir, name.replace(/\.xml$/, '.expected.txt')), 'utf8').split('\n');
  const rest = (word: string) => lines.filter((l) => l.startsWith(`${word} `)).map((l) => l.slice(word.length + 1).replace(/^\d+:\d+ /, ''));
  return {
    numbers: rest('number').sort(),
    // «the text under the range» is the number, or for an empty one its element's tag.
    findings: rest('finding').map((f) => f.replace(/«<[^»]*>»/, '«»')).sort(),
  };
}

/** Every tax number the view shows (parties and lines), with where it shows it. */
function shownNumbers(m: StructuredModel): PartyIdentification[] {
  return [...m.parties.flatMap((p) => p.identifications), ...m.lines.flatMap((l) => l.identifications)].filter((i) => i.taxNumber);
}

function viewed(m: StructuredModel): { numbers: string[]; findings: string[] } {
  const numbers = shownNumbers(m);
  return {
    numbers: numbers.map((i) => `${i.scheme} ${i.taxNumber?.role} "${i.value}"`).sort(),
    findings: numbers.flatMap((i) => i.findings.map((f) => `${f.severity} ${f.code} ${i.taxNumber?.role} «${i.value}» ${f.message}`)).sort(),
  };
}

function modelOf(name: string, text: string, registry?: (family: RegistryDocumentType) => RegistryList | undefined): StructuredModel {
  const out = readDocument(text, { l10n: english, ...(registry ? { registry } : {}) }).result;
  assert.ok(out.ok, `${name}: ${JSON.stringify(out)}`);
  return out.model;
}

for (const name of fixtures) {
  test(`fixture ${name}: the structured view shows the numbers the editor checks, with the editor's findings`, () => {
    const text = fs.readFileSync(path.join(dir, name), 'utf8');
    if (NOT_WELL_FORMED.has(name)) {
      const out = readDocument(text).result;
      assert.ok(!out.ok && out.reason === 'notWellFormed', JSON.stringify(out));
      assert.equal(out.line, text.slice(0, text.indexOf('<![CDATA[')).split('\n').length, 'where the unclosed CDATA opens');
      return;
    }
    const expected = expectedOf(name);
    const shown = viewed(modelOf(name, text));
    assert.deepEqual(shown.numbers, expected.numbers, 'the tax numbers, their schemes and party roles');
    assert.deepEqual(shown.findings, expected.findings, 'the findings at them, in the same words');
  });
}

test('the fixtures exercise what the view must say: information for a placeholder buyer, errors for drivers, goods owners, intermediaries and signers', () => {
  const all = fixtures.filter((n) => !NOT_WELL_FORMED.has(n)).flatMap((n) => viewed(modelOf(n, fs.readFileSync(path.join(dir, n), 'utf8'))).findings);
  const has = (pattern: RegExp, what: string) => assert.ok(all.some((f) => pattern.test(f)), what);
  has(/^information gib-placeholder buyer «2222222222»/, 'the placeholder buyer abroad, as information');
  has(/^information gib-placeholder buyer «11111111111»/, 'the placeholder traveller, as information');
  has(/^error misplaced-gib-placeholder signatory /, 'a placeholder as the signer');
  has(/^error invalid-tax-id driver /, "a driver's TCKN");
  has(/^error invalid-tax-id goodsOwner /, 'an HKS goods owner');
  has(/^error invalid-tax-id customer «» The VKN is empty/, 'an empty VKN');
  assert.ok(!all.some((f) => /^error .*«(2222222222|11111111111)» .*accepted for the buyer/.test(f)), 'a prescribed placeholder is never an error');
  const numbers = fixtures.filter((n) => !NOT_WELL_FORMED.has(n)).flatMap((n) => viewed(modelOf(n, fs.readFileSync(path.join(dir, n), 'utf8'))).numbers);
  for (const scheme of ['VKN_TCKN', 'ARACIKURUMVKN', 'MALSAHIBIVKNTCKN']) assert.ok(numbers.some((n) => n.startsWith(`${scheme} `)), `${scheme} is checked in the view`);
});

/** A registry of every valid number of the fixtures: some registered, some deregistered, the rest not listed. */
function registryOf(statuses: Record<string, 'registered' | 'deregistered'>): RegistryList {
  return {
    downloadedAt: '2026-11-25T08:00:00Z',
    lookup: (taxNumber) => {
      const status = statuses[taxNumber];
      if (!status) return undefined;
      const alias = { name: `urn:mail:${taxNumber}@pk`, kind: 'PK' as const, document: 'Invoice' as const, ...(status === 'deregistered' ? { deleted: '2026-01-01' } : {}) };
      return { taxNumber, title: `MÜKELLEF ${taxNumber}`, aliases: [alias], downloadedAt: '2026-11-25T08:00:00Z' } satisfies OfflineTaxpayer;
    },
  };
}

test('with registry lists downloaded (e-invoice only, both, either status): the view shows the findings the editor reports, on every fixture', () => {
  const statuses: Array<Record<string, 'registered' | 'deregistered'>> = [
    {},
    { '1460415308': 'registered', '7351948201': 'registered', '4540536920': 'registered', '1234567890': 'deregistered' },
    { '1460415308': 'deregistered', '7351948201': 'deregistered', '4540536920': 'deregistered', '1234567890': 'registered' },
  ];
  let compared = 0;
  for (const s of statuses) {
    const list = registryOf(s);
    for (const families of [['Invoice'], ['Invoice', 'DespatchAdvice'], ['DespatchAdvice']] as RegistryDocumentType[][]) {
      const registry = (family: RegistryDocumentType) => (families.includes(family) ? list : undefined);
      const lookups: RegistryLookups = (family) => (families.includes(family) ? (n: string) => list.lookup(n) : undefined);
      for (const name of fixtures.filter((n) => !NOT_WELL_FORMED.has(n))) {
        const text = fs.readFileSync(path.join(dir, name), 'utf8');
        const editor = documentFindings(scanUbl(text), lookups)
          .map((f) => `${f.severity} ${f.code} ${f.role} «${f.taxNumber}» ${findingMessage(english, f)}`)
          .sort();
        assert.deepEqual(viewed(modelOf(name, text, registry)).findings, editor, `${name} with ${families.join(' + ')} lists, ${JSON.stringify(s)}`);
        compared += editor.length;
      }
    }
  }
  assert.ok(compared > 100, `${compared} findings compared`);
});
