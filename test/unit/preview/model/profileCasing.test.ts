// The preview and the editor agree whatever the case of the ProfileID: GİB's profiles are upper case,
// but a hand-written `ticarifatura` or `EarsivFatura` is the same profile to both (the editor's rules
// upper-case it). On every fixture of test/fixtures/ubl/ with its ProfileID written in several casings,
// with no registry list, with lists where nobody is registered and with lists where every number is,
// the preview shows exactly the findings the editor reports.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { scanUbl } from '../../../../src/editor/diagnostics/ublScan';
import { documentFindings, type RegistryLookups } from '../../../../src/editor/diagnostics/rules';
import { findingMessage, type Translator } from '../../../../src/editor/diagnostics/messages';
import type { RegistryDocumentType } from '../../../../src/domain/ubl/documentTypes';
import { readDocument, type RegistryList } from '../../../../src/preview/model/readDocument';
import type { OfflineTaxpayer } from '../../../../src/registry/offlineLookup';

const dir = path.resolve(__dirname, '..', '..', '..', '..', '..', 'test', 'fixtures', 'ubl');
const english: Translator = { t: (message, ...args) => message.replace(/\{(\d+)\}/g, (_m, i: string) => String(args[Number(i)])) };
const fixtures = fs.readdirSync(dir).filter((f) => f.endsWith('.xml') && f !== 'invoice-unclosed-cdata.xml').sort();

const CASINGS: Array<[string, (p: string) => string]> = [
  ['lower case', (p) => p.toLowerCase()],
  ['capitalised', (p) => p.charAt(0) + p.slice(1).toLowerCase()],
  ['alternating', (p) => [...p].map((c, i) => (i % 2 ? c.toLowerCase() : c)).join('')],
  ['lower case with white space', (p) => ` ${p.toLowerCase()} `],
];

/** Every number listed as a user of the family with an active PK alias (`all`), or nobody. */
function list(all: boolean, family: RegistryDocumentType): RegistryList {
  return {
    downloadedAt: '2026-11-25T08:00:00Z',
    lookup: (n) => (all ? ({ taxNumber: n, title: `MÜKELLEF ${n}`, downloadedAt: '2026-11-25T08:00:00Z', aliases: [{ name: `urn:mail:${n}@pk`, kind: 'PK', document: family }] } satisfies OfflineTaxpayer) : undefined),
  };
}

function previewFindings(text: string, registry?: (family: RegistryDocumentType) => RegistryList | undefined): string[] {
  const out = readDocument(text, { l10n: english, ...(registry ? { registry } : {}) }).result;
  assert.ok(out.ok, JSON.stringify(out));
  const m = out.model;
  return [...m.parties.flatMap((p) => p.identifications), ...m.lines.flatMap((l) => l.identifications)]
    .flatMap((i) => i.findings.map((f) => `${f.severity} ${f.code} «${i.value}» ${f.message}`))
    .sort();
}

function editorFindings(text: string, lookups: RegistryLookups | undefined): string[] {
  return documentFindings(scanUbl(text), lookups).map((f) => `${f.severity} ${f.code} «${f.taxNumber}» ${findingMessage(english, f)}`).sort();
}

for (const [casing, write] of CASINGS) {
  test(`ProfileID in ${casing}: the preview shows the findings the editor reports, on every fixture, with and without registry lists`, () => {
    let warnings = 0;
    let changed = 0;
    for (const name of fixtures) {
      const original = fs.readFileSync(path.join(dir, name), 'utf8');
      const text = original.replace(/(<cbc:ProfileID>)([^<]*)(<\/cbc:ProfileID>)/, (_m, open: string, profile: string, close: string) => `${open}${write(profile.trim())}${close}`);
      if (text === original) continue;
      changed++;
      for (const all of [undefined, false, true]) {
        const registry = all === undefined ? undefined : (family: RegistryDocumentType) => list(all, family);
        const lookups: RegistryLookups | undefined = registry && ((family) => (n) => registry(family).lookup(n));
        const editor = editorFindings(text, lookups);
        assert.deepEqual(previewFindings(text, registry), editor, `${name}, ProfileID in ${casing}, ${all === undefined ? 'no list' : all ? 'everyone registered' : 'nobody registered'}`);
        warnings += editor.filter((f) => f.startsWith('warning ')).length;
      }
    }
    assert.ok(changed >= 8, `${changed} fixtures with a ProfileID`);
    // The casing must not hide the profile rule from either side: non-users of e-invoice and e-despatch profiles, users on e-Arşiv.
    assert.ok(warnings >= 4, `${warnings} profile warnings compared`);
  });
}

test('a lower-case e-invoice profile to a non-user: the editor warns, and so does the preview', () => {
  const text = fs.readFileSync(path.join(dir, '..', 'ubl-tr-invoice-valid.xml'), 'utf8').replace('<cbc:ProfileID>TICARIFATURA</cbc:ProfileID>', '<cbc:ProfileID>ticarifatura</cbc:ProfileID>');
  assert.ok(text.includes('ticarifatura'));
  const registry = (family: RegistryDocumentType) => list(false, family);
  const editor = editorFindings(text, (family) => (n) => registry(family).lookup(n)).filter((f) => f.startsWith('warning '));
  assert.equal(editor.length, 1, JSON.stringify(editor));
  assert.match(editor[0], /^warning not-e-invoice-user /);
  assert.deepEqual(previewFindings(text, registry).filter((f) => f.startsWith('warning ')), editor);
});
