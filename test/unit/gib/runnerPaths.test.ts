// The paths the runner selects without fontoxpath (src/gib/runner.ts: absolutePathMatcher for the
// absolute paths hoisted out of GİB's tests, climbingPathSelector for the paths that climb out of a
// rule's node) select what fontoxpath selects, in the same order, on GİB's fixtures.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as fx from 'fontoxpath';
import type * as slimdom from 'slimdom';
import { absolutePathMatcher, climbingPathSelector } from '../../../src/gib/runner';
import { elementsInOrder } from '../../../src/gib/schematron';
import { parseGibDocument } from '../../../src/gib/xmlTree';

const fixtures = path.join(__dirname, '../../../../test/fixtures/gib');
const ns: Record<string, string> = {
  inv: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  desp: 'urn:oasis:names:specification:ubl:schema:xsd:DespatchAdvice-2',
  apr: 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  ext: 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2',
};
const options = { namespaceResolver: (p: string): string | null => ns[p] ?? null };
/** The same nodes (the very objects), in the same order. */
function assertSameNodes(ours: readonly unknown[], theirs: readonly unknown[], message: string): void {
  assert.equal(ours.length, theirs.length, message);
  ours.forEach((n, i) => assert.equal(n, theirs[i], message));
}

const docs = readdirSync(fixtures).filter((f) => f.endsWith('.xml')).map((f) => ({ name: f, doc: parseGibDocument(readFileSync(path.join(fixtures, f), 'utf8')) }));

test('absolute paths: the nodes fontoxpath selects, in document order; predicates and unbound prefixes are not taken', () => {
  const paths = ['//inv:Invoice/cbc:ProfileID', '//desp:DespatchAdvice/cbc:ProfileID', '//cbc:UBLVersionID', '/inv:Invoice/cac:InvoiceLine/cbc:ID', '//cac:InvoiceLine/cbc:ID', '//cbc:ID', '/cac:InvoiceLine', '//ElementType', '//apr:ApplicationResponse/cac:DocumentResponse/cac:Response/cbc:ResponseCode'];
  let selected = 0;
  for (const { name, doc } of docs) {
    const elements = elementsInOrder(doc.documentElement!);
    for (const p of paths) {
      const m = absolutePathMatcher(p, ns)!;
      const ours = elements.filter((el) => el.localName === m.name && m.matches(el));
      assertSameNodes(ours, fx.evaluateXPathToNodes(p, doc, null, {}, options), `${name}: ${p}`);
      selected += ours.length;
    }
  }
  assert.ok(selected > 20, 'the paths select something');
  assert.equal(absolutePathMatcher('//cbc:ID[1]', ns), undefined);
  assert.equal(absolutePathMatcher('//nope:ID', ns), undefined);
});

test('climbing paths: the nodes fontoxpath selects from each element and attribute, in document order', () => {
  const paths = ['../cbc:ProfileID', '../../cbc:ProfileID', '../../../cbc:InvoiceTypeCode', '../cac:Delivery/cac:DeliveryAddress', '../cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory', '../cac:InvoiceLine', '../cbc:ID/@schemeID', '../cac:AccountingSupplierParty/cac:Party/cac:PartyIdentification/cbc:ID/@schemeID', '..', '../..', '../ElementType'];
  let selected = 0;
  for (const { name, doc } of docs) {
    const contexts: slimdom.Node[] = [];
    for (const el of elementsInOrder(doc.documentElement!)) contexts.push(el, ...el.attributes);
    for (const p of paths) {
      const select = climbingPathSelector(p, ns)!;
      for (const context of contexts) {
        const ours = select(context);
        assertSameNodes(ours, fx.evaluateXPathToNodes(p, context, null, {}, options), `${name}: ${p}`);
        selected += ours.length;
      }
    }
  }
  assert.ok(selected > 1000, 'the paths select something');
  for (const p of ['../cac:X[1]', '../*', '..//cbc:ID', 'cbc:ID', '../nope:X']) assert.equal(climbingPathSelector(p, ns), undefined, p);
});
