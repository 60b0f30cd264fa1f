// The plain explanations of GİB's cryptic rules: every key still names exactly one assert of GİB's
// package (so a rule GİB drops or rewrites fails here, not silently in the editor), the engine's own
// findings find their explanation, and the message shown is GİB's words first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { english } from '../../../src/domain/taxIdWording';
import { explanationFor, GIB_EXPLANATIONS } from '../../../src/editor/gib/explanations';
import { gibMessage, shownFindings } from '../../../src/editor/gib/presentation';
import { readGibFiles } from '../../../src/gib/rulesSource';
import { readSchematron } from '../../../src/gib/schematron';
import { wantRuleFile } from '../../../src/gib/ruleStoreLayout';
import { gibArchives, NO_GIB_DATA, sharedGibEngine } from '../../support/gibPackages';

const archives = gibArchives();
const skip = archives ? false : NO_GIB_DATA;
const fixtures = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'gib');

test("every explained rule is in GİB's package: its abstract rule has exactly one assert whose test holds the key", { skip }, async () => {
  const rules = readSchematron(await readGibFiles(archives!.rules, wantRuleFile));
  const testsOf = new Map<string, Set<string>>();
  for (const pattern of rules.patterns) {
    for (const rule of pattern.rules) {
      for (const a of rule.asserts) if (a.fromRule) testsOf.set(a.fromRule, (testsOf.get(a.fromRule) ?? new Set()).add(a.test));
    }
  }
  const missing: string[] = [];
  for (const e of GIB_EXPLANATIONS) {
    const matching = [...(testsOf.get(e.rule) ?? [])].filter((t) => t.includes(e.test));
    if (matching.length !== 1) missing.push(`${e.rule} / ${e.test}: ${matching.length} asserts`);
  }
  assert.deepEqual(missing, []);
  const keys = GIB_EXPLANATIONS.map((e) => `${e.rule}\n${e.test}`);
  assert.equal(new Set(keys).size, keys.length, 'no key twice');
});

test("the engine's findings on a wrong invoice number and a zero-rate KDV subtotal without reason get their explanations", { skip }, async () => {
  const engine = await sharedGibEngine({ rulesOnly: true })!;
  const text = fs
    .readFileSync(path.join(fixtures, 'editor-invoice-broken.xml'), 'utf8');
  const findings = (await engine.validate(text)).findings.filter((f) => f.kind === 'rule' && !f.draft);
  const explained = findings.map((f) => explanationFor(f)?.rule);
  assert.ok(explained.includes('InvoiceIDCheck'), JSON.stringify(findings.map((f) => f.message)));
  assert.ok(explained.includes('TaxExemptionReasonCheck'), JSON.stringify(findings.map((f) => f.message)));
  const id = findings.find((f) => f.rule === 'InvoiceIDCheck')!;
  assert.equal(
    gibMessage(english, id),
    "Geçersiz cbc:ID elemanı değeri. cbc:ID elemanı 'ABC2009123456789' formatında olmalıdır.\nThe document number must be 16 characters: a 3-character series of capital letters or digits, the 4-digit year, then a 9-digit sequence number (e.g. ABC2026000000001).",
  );
});

test('a finding of a rule not in the table, or of the XSD, is shown in GİB\'s words alone', () => {
  assert.equal(gibMessage(english, { message: ' Geçersiz cbc:CopyIndicator elemanı değeri. ', rule: 'CopyIndicatorCheck', test: "cbc:CopyIndicator = 'false'" }), 'Geçersiz cbc:CopyIndicator elemanı değeri.');
  assert.equal(explanationFor({ rule: 'InvoiceIDCheck', test: 'string-length(cbc:ID) = 16' }), undefined, 'the same rule, another assert');
  assert.equal(explanationFor({ message: 'Element x: missing child' } as { rule?: string; test?: string }), undefined);
});

test('the explanations are translated: the Turkish bundle has each one', () => {
  const bundle = JSON.parse(fs.readFileSync(path.resolve(fixtures, '..', '..', '..', 'l10n', 'bundle.l10n.tr.json'), 'utf8')) as Record<string, string>;
  const turkish = { t: (m: string) => bundle[m] ?? `UNTRANSLATED ${m}` };
  for (const e of GIB_EXPLANATIONS) assert.doesNotMatch(e.explain(turkish), /^UNTRANSLATED/, e.rule);
});

test('signature-only findings are hidden unless asked for; a note is shown once', () => {
  const f = (message: string, draft: boolean, kind: 'rule' | 'note' | 'xsd' = 'rule') => ({ message, draft, kind });
  const all = [f('sig', true, 'xsd'), f('id', false), f('note', false, 'note'), f('note', false, 'note'), f('sig rule', true)];
  assert.deepEqual(shownFindings(all, false).map((x) => x.message), ['id', 'note']);
  assert.deepEqual(shownFindings(all, true).map((x) => x.message), ['sig', 'id', 'note', 'sig rule']);
});
