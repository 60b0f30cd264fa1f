// The editor's sniff of a UBL-TR document: root element and the namespace its prefix is bound to, read
// from the head of the text past the prolog, comments and a doctype; anything else is not sent to
// GİB's rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gibDocumentRoot } from '../../../src/gib/documentRoots';

const fixtures = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures');
const INVOICE_NS = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';

test("every fixture of GİB's document types is recognised, at its root's name", () => {
  for (const [file, localName] of [
    ['invoice.xml', 'Invoice'],
    ['despatch-advice.xml', 'DespatchAdvice'],
    ['receipt-advice.xml', 'ReceiptAdvice'],
    ['application-response.xml', 'ApplicationResponse'],
    ['credit-note.xml', 'CreditNote'],
  ]) {
    const text = fs.readFileSync(path.join(fixtures, 'gib', file), 'utf8');
    const root = gibDocumentRoot(text);
    assert.equal(root?.localName, localName, file);
    assert.equal(text.slice(root.nameStart, root.nameEnd), localName, file);
  }
});

test('a prefixed root, after a BOM, a declaration, comments, a processing instruction and a doctype', () => {
  const text = `\uFEFF<?xml version="1.0"?>\n<!-- <Invoice xmlns="${INVOICE_NS}"> in a comment -->\n<?xml-stylesheet href="x.xslt"?>\n<!DOCTYPE inv:Invoice [ <!ENTITY a "b"> ]>\n<inv:Invoice xmlns:cbc="x" xmlns:inv='${INVOICE_NS}'><cbc:ID/></inv:Invoice>`;
  const root = gibDocumentRoot(text);
  assert.equal(root?.localName, 'Invoice');
  assert.equal(text.slice(root.nameStart, root.nameEnd), 'inv:Invoice');
});

test("GİB's envelope is recognised", () => {
  const root = gibDocumentRoot('<sh:StandardBusinessDocument xmlns:sh="http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader"><sh:StandardBusinessDocumentHeader/></sh:StandardBusinessDocument>');
  assert.equal(root?.localName, 'StandardBusinessDocument');
});

test('not a UBL-TR document: another namespace, the name bound to another prefix, another root, a root in a comment only, plain text', () => {
  for (const text of [
    '<Invoice xmlns="urn:example:invoice"><ID/></Invoice>',
    `<inv:Invoice xmlns="${INVOICE_NS}" xmlns:inv="urn:other"/>`,
    `<Invoice xmlns:x="${INVOICE_NS}"/>`,
    `<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>`,
    `<!-- <Invoice xmlns="${INVOICE_NS}"/> -->`,
    `<!-- unclosed <Invoice xmlns="${INVOICE_NS}"/>`,
    'Invoice',
    '',
    `<constructor xmlns="${INVOICE_NS}"/>`,
  ]) {
    assert.equal(gibDocumentRoot(text), undefined, text);
  }
});

test('a half-typed root (the head ends inside its start tag) is recognised by what it has', () => {
  assert.equal(gibDocumentRoot(`<Invoice xmlns="${INVOICE_NS}" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2`)?.localName, 'Invoice');
});
