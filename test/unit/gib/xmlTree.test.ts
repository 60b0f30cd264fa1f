// The engine's document tree (src/gib/xmlTree.ts) against slimdom-sax-parser's, which it replaces for
// speed: the same nodes in the same order, with the same names, namespaces, attributes, text and
// element positions; fontoxpath answers the same over both; a document that is not well-formed
// throws slimdom-sax-parser's own error.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as fx from 'fontoxpath';
import { sync } from 'slimdom-sax-parser';
import { parseGibDocument } from '../../../src/gib/xmlTree';

const fixtures = path.join(__dirname, '../../../../test/fixtures/gib');

interface Shape {
  type: number;
  name?: string;
  ns?: string | null;
  prefix?: string | null;
  local?: string;
  position?: string;
  attributes?: string[];
  data?: string;
  children?: Shape[];
}

/** The node properties read here (both trees have them). */
interface TreeNode {
  nodeType: number;
  nodeName: string;
  namespaceURI?: string | null;
  prefix?: string | null;
  localName?: string;
  position?: { line: number; column: number };
  attributes?: ArrayLike<TreeNode & { name: string; value: string; ownerElement: TreeNode }>;
  data?: string;
  target?: string;
  childNodes: ArrayLike<TreeNode>;
  parentNode: TreeNode | null;
  previousSibling?: TreeNode | null;
  nextSibling?: TreeNode | null;
  documentElement?: TreeNode & { textContent: string | null };
}

/** What the engine and fontoxpath read of a node, recursively. */
function shape(node: TreeNode): Shape {
  const out: Shape = { type: node.nodeType };
  if (node.nodeType === 1) {
    out.name = node.nodeName;
    out.ns = node.namespaceURI;
    out.prefix = node.prefix;
    out.local = node.localName;
    out.position = `${node.position!.line}:${node.position!.column}`;
    out.attributes = Array.from(node.attributes!).map((a) => `${a.namespaceURI}|${a.prefix}|${a.localName}|${a.name}=${a.value}|${a.ownerElement === node}`);
  }
  if (node.nodeType === 3 || node.nodeType === 4 || node.nodeType === 8) out.data = node.data;
  if (node.nodeType === 7) out.data = `${node.target} ${node.data}`;
  const kids = Array.from(node.childNodes).filter((c) => c.nodeType !== 10);
  if (kids.length) {
    out.children = kids.map(shape);
    // Siblings as fontoxpath walks them (slimdom's doctype node left out: ours has none).
    const step = (n: TreeNode, dir: 'previousSibling' | 'nextSibling'): TreeNode | null => {
      let s = n[dir] ?? null;
      while (s && s.nodeType === 10) s = s[dir] ?? null;
      return s;
    };
    kids.forEach((c, i) => {
      assert.equal(c.parentNode, node);
      assert.equal(step(c, 'previousSibling'), i ? kids[i - 1] : null);
      assert.equal(step(c, 'nextSibling'), kids[i + 1] ?? null);
    });
  }
  return out;
}

const handWritten = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE Invoice SYSTEM "invoice.dtd">
<!-- before the root -->
<?gib before?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:cbc" xml:lang="tr">
  <cbc:ID schemeID="X" a="1 &amp; 2">A&lt;B &#x131;&#305; ğ</cbc:ID><cbc:Note><![CDATA[<not a tag>]]></cbc:Note><!--c--><?pi data?>
  <inner xmlns=""><deep xmlns:x="urn:x" x:attr="v"><x:leaf/>text
over lines</deep></inner>
	<cbc:Empty/>   <cbc:After>𝄞 surrogate</cbc:After>
</Invoice>
<!-- after -->
`;

test("the tree is slimdom-sax-parser's: nodes, names, namespaces, attributes, text and element positions (GİB's fixtures and a hand-written document)", () => {
  const texts = readdirSync(fixtures).filter((f) => f.endsWith('.xml')).map((f) => readFileSync(path.join(fixtures, f), 'utf8'));
  for (const text of [handWritten, ...texts]) {
    const ours = parseGibDocument(text) as unknown as TreeNode;
    const theirs = sync(text, { position: true }) as unknown as TreeNode;
    assert.deepEqual(shape(ours), shape(theirs));
    assert.equal(ours.documentElement!.nodeName, theirs.documentElement!.nodeName);
    assert.equal(ours.documentElement!.textContent, theirs.documentElement!.textContent);
  }
});

test('fontoxpath answers the same over both trees', () => {
  const options = { namespaceResolver: (p: string) => ({ cbc: 'urn:cbc', inv: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2', x: 'urn:x' })[p] ?? null };
  const ours = parseGibDocument(handWritten);
  const theirs = sync(handWritten, { position: true });
  for (const expr of ["string(/inv:Invoice/cbc:ID/@a)", 'count(//node())', 'count(//text())', "string-join(//*/name(), ',')", 'string(/)', "//x:leaf/../@x:attr = 'v'", 'count(/inv:Invoice/@*)', "name(/inv:Invoice/cbc:Note/following-sibling::node()[1])", 'count(//comment()) + count(//processing-instruction())', "normalize-space(//deep)"]) {
    assert.deepEqual(fx.evaluateXPath(expr, ours, null, {}, fx.evaluateXPath.ANY_TYPE, options), fx.evaluateXPath(expr, theirs, null, {}, fx.evaluateXPath.ANY_TYPE, options), expr);
  }
});

test("a document that is not well-formed: slimdom-sax-parser's error, line and column first", () => {
  for (const text of ['<a><b></a>', '<a>', '<p:a/>', '<a>&nope;</a>', '<a/><b/>']) {
    let theirs = '';
    try {
      sync(text, { position: true });
    } catch (e) {
      theirs = (e as Error).message;
    }
    assert.ok(theirs, text);
    assert.throws(() => parseGibDocument(text), (e: Error) => e.message === theirs);
  }
});
