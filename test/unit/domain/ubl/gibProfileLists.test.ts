// The profile lists the receiver rule goes by (src/domain/ubl/documentTypes.ts), held against GİB's code
// lists (ProfileIDType, ProfileIDTypeEarchive, ProfileIDTypeDespatchAdvice of UBL-TR_Codelist.xml, read
// from GİB's archive at test time: test/support/gibCodeLists.ts). Then, for every profile of GİB's lists
// (not of the product's), a document to a receiver who is not a registered user keeps its warning in the
// editor's diagnostics and in the preview: a KAMU invoice to a non-user, an HKSIRSALIYE despatch to a
// receiver who is not an e-despatch user, and so on.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { E_ARCHIVE_PROFILE, E_DESPATCH_PROFILES, E_INVOICE_PROFILES, type RegistryDocumentType } from '../../../../src/domain/ubl/documentTypes';
import { scanUbl } from '../../../../src/editor/diagnostics/ublScan';
import { documentFindings, type RegistryLookups } from '../../../../src/editor/diagnostics/rules';
import { readDocument, type RegistryList } from '../../../../src/preview/model/readDocument';
import type { OfflineTaxpayer } from '../../../../src/registry/offlineLookup';
import { findGibArchive, gibArchiveCandidates, readGibCodeLists } from '../../../support/gibCodeLists';

const root = path.resolve(__dirname, '..', '..', '..', '..', '..');
const fixture = (name: string) => fs.readFileSync(path.join(root, 'test', 'fixtures', name), 'utf8');
const archive = findGibArchive(root);
const skip = archive ? false : `GİB's archive not found (${gibArchiveCandidates(root).join(', ')}); set NILVERA_GIB_DATA`;
const lists = archive ? readGibCodeLists(archive) : Promise.resolve(new Map<string, string[]>());

async function gibList(name: string): Promise<string[]> {
  const list = (await lists).get(name);
  assert.ok(list && list.length > 0, `GİB's code list ${name}`);
  return list;
}

const INVOICE = fixture('ubl-tr-invoice-valid.xml');
const INVOICE_RECEIVER = '1234567890';
const DESPATCH = fixture(path.join('ubl', 'despatch-advice.xml'));
const DESPATCH_RECEIVER = '7351948201';

/** A document as written, with its ProfileID replaced. */
function withProfile(text: string, profile: string): string {
  const replaced = text.replace(/<cbc:ProfileID>[^<]*<\/cbc:ProfileID>/, `<cbc:ProfileID>${profile}</cbc:ProfileID>`);
  assert.notEqual(replaced, text.includes(`<cbc:ProfileID>${profile}<`) ? undefined : text, 'the fixture has a ProfileID');
  return replaced;
}

/** A registry list family where `registered` is a user of `family` with an active PK alias, and nobody else is listed. */
function registryWith(registered: string | undefined, family: RegistryDocumentType): RegistryList {
  return {
    downloadedAt: '2026-11-25T08:00:00Z',
    lookup: (n) => (n === registered ? ({ taxNumber: n, title: 'KAYITLI MÜKELLEF', downloadedAt: '2026-11-25T08:00:00Z', aliases: [{ name: 'urn:mail:pk@x', kind: 'PK', document: family }] } satisfies OfflineTaxpayer) : undefined),
  };
}

/** The warnings the editor and the preview give at the receiver, with both registry lists downloaded. */
function warnings(text: string, receiver: string, registered: string | undefined): { editor: string[]; preview: string[] } {
  const list = (family: RegistryDocumentType) => registryWith(registered, family);
  const lookups: RegistryLookups = (family) => (n) => list(family).lookup(n);
  const editor = documentFindings(scanUbl(text), lookups).filter((f) => f.severity === 'warning').map((f) => `${f.code} «${f.taxNumber}»`);
  const out = readDocument(text, { registry: list }).result;
  assert.ok(out.ok, JSON.stringify(out));
  const preview = out.model.parties.flatMap((p) => p.identifications.flatMap((i) => i.findings.filter((f) => f.severity === 'warning').map((f) => `${f.code} «${i.value}»`)));
  assert.ok(receiver.length > 0);
  return { editor, preview };
}

test("the product's profile lists are GİB's: e-invoice (ProfileIDType), e-Arşiv (ProfileIDTypeEarchive), e-despatch (ProfileIDTypeDespatchAdvice)", { skip }, async () => {
  assert.deepEqual([...E_INVOICE_PROFILES].sort(), [...(await gibList('ProfileIDType'))].sort());
  assert.deepEqual([E_ARCHIVE_PROFILE], await gibList('ProfileIDTypeEarchive'));
  assert.deepEqual([...E_DESPATCH_PROFILES].sort(), [...(await gibList('ProfileIDTypeDespatchAdvice'))].sort());
});

test("every e-invoice profile of GİB's list (KAMU, HKS, …): an invoice to a receiver who is not an e-invoice user keeps its warning, in the editor and the preview", { skip }, async () => {
  const profiles = await gibList('ProfileIDType');
  assert.ok(profiles.includes('KAMU'), "GİB's list has KAMU");
  for (const profile of profiles) {
    const text = withProfile(INVOICE, profile);
    const expected = [`not-e-invoice-user «${INVOICE_RECEIVER}»`];
    const nonUser = warnings(text, INVOICE_RECEIVER, undefined);
    assert.deepEqual(nonUser.editor, expected, `editor, ${profile}`);
    assert.deepEqual(nonUser.preview, expected, `preview, ${profile}`);
    const user = warnings(text, INVOICE_RECEIVER, INVOICE_RECEIVER);
    assert.deepEqual([user.editor, user.preview], [[], []], `${profile} to a registered user`);
  }
});

test("GİB's e-Arşiv profile: an invoice to a registered e-invoice user keeps its warning, to a non-user none", { skip }, async () => {
  for (const profile of await gibList('ProfileIDTypeEarchive')) {
    const text = withProfile(INVOICE, profile);
    const expected = [`e-invoice-user-on-e-archive «${INVOICE_RECEIVER}»`];
    const user = warnings(text, INVOICE_RECEIVER, INVOICE_RECEIVER);
    assert.deepEqual([user.editor, user.preview], [expected, expected], profile);
    const nonUser = warnings(text, INVOICE_RECEIVER, undefined);
    assert.deepEqual([nonUser.editor, nonUser.preview], [[], []], `${profile} to a non-user`);
  }
});

test("every despatch profile of GİB's list (TEMELIRSALIYE, HKSIRSALIYE, …): a despatch to a receiver who is not an e-despatch user keeps its warning, in the editor and the preview", { skip }, async () => {
  const profiles = await gibList('ProfileIDTypeDespatchAdvice');
  assert.ok(profiles.includes('HKSIRSALIYE'), "GİB's list has HKSIRSALIYE");
  for (const profile of profiles) {
    const text = withProfile(DESPATCH, profile);
    const expected = [`not-e-despatch-user «${DESPATCH_RECEIVER}»`];
    const nonUser = warnings(text, DESPATCH_RECEIVER, undefined);
    assert.deepEqual(nonUser.editor, expected, `editor, ${profile}`);
    assert.deepEqual(nonUser.preview, expected, `preview, ${profile}`);
    const user = warnings(text, DESPATCH_RECEIVER, DESPATCH_RECEIVER);
    assert.deepEqual([user.editor, user.preview], [[], []], `${profile} to a registered e-despatch user`);
  }
});
