// What the preview's page and host agree on without a browser: the host's check of every page message
// and of the restore state a page keeps for a window reload (src/preview/protocol.ts), the page's policy (src/preview/page.ts: the frame it inherits into stays shut),
// and what the page says when a design fails (src/preview/designDiagnosis.ts).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkPreviewMessage, restoreStateOf } from '../../../src/preview/protocol';
import { framePolicy, frameSandbox, previewPage, previewPolicy } from '../../../src/preview/page';
import { externalReferences, likelyCauses } from '../../../src/preview/designDiagnosis';

const root = path.resolve(__dirname, '..', '..', '..', '..');

test('page messages: the five known shapes pass, rebuilt from their checked fields only', () => {
  const ok = (raw: unknown) => {
    const c = checkPreviewMessage(raw);
    assert.ok(c.ok, `${JSON.stringify(raw)}: ${c.ok ? '' : c.reason}`);
    return c.message;
  };
  assert.deepEqual(ok({ type: 'ready', xslt: true, engine: 'Chromium 156' }), { type: 'ready', xslt: true, engine: 'Chromium 156' });
  assert.deepEqual(ok({ type: 'mode', mode: 'structured' }), { type: 'mode', mode: 'structured' });
  assert.deepEqual(ok({ type: 'rendered', seq: 3, mode: 'design', ms: 12.5, outcome: 'designFailed' }), { type: 'rendered', seq: 3, mode: 'design', ms: 12.5, outcome: 'designFailed' });
  assert.deepEqual(ok({ type: 'upload' }), { type: 'upload' });
  assert.deepEqual(ok({ type: 'pickInvoice' }), { type: 'pickInvoice' });
  assert.deepEqual(ok({ type: 'scripts', allow: true }), { type: 'scripts', allow: true });
});

test('page messages: anything else is dropped with a reason that names no value', () => {
  const cases: Array<[unknown, RegExp]> = [
    [null, /not an object/],
    [[{ type: 'upload' }], /not an object/],
    ['upload', /not an object/],
    [Object.create({ type: 'upload' }), /not a plain object/],
    [{}, /no "type"/],
    [{ type: 'toString' }, /unknown type toString/],
    [{ type: 'upload', file: '/etc/passwd' }, /unexpected field\(s\) file in "upload"/],
    [{ type: 'ready', xslt: 'yes', engine: 'x' }, /"xslt" is not true\/false/],
    [{ type: 'ready', xslt: true, engine: 'x'.repeat(201) }, /"engine" is not text/],
    [{ type: 'ready', xslt: true }, /missing field\(s\) engine in "ready"/],
    [{ type: 'scripts', allow: 'yes' }, /"allow" is not true\/false/],
    [{ type: 'scripts' }, /missing field\(s\) allow in "scripts"/],
    [{ type: 'mode', mode: 'raw-html' }, /"mode" is not a view mode/],
    [{ type: 'rendered', seq: -1, mode: 'design', ms: 1, outcome: 'design' }, /"seq"/],
    [{ type: 'rendered', seq: 1.5, mode: 'design', ms: 1, outcome: 'design' }, /"seq"/],
    [{ type: 'rendered', seq: 1, mode: 'design', ms: Number.NaN, outcome: 'design' }, /"ms"/],
    [{ type: 'rendered', seq: 1, mode: 'design', ms: 1, outcome: 'leaked' }, /"outcome"/],
    [JSON.parse('{"type":"upload","__proto__":{"x":1}}'), /a prototype key \(__proto__\)/],
  ];
  for (const [raw, reason] of cases) {
    const c = checkPreviewMessage(raw);
    assert.ok(!c.ok, `accepted ${JSON.stringify(raw)}`);
    assert.match(c.reason, reason);
    assert.ok(!c.reason.includes('/etc/passwd'));
  }
});

test('restore state: taken from the page\'s state for its own panel kind, with URIs and a sample name checked; anything else is none', () => {
  const doc = 'file:///home/u/faturalar/invoice%20%C5%9F.xml';
  assert.deepEqual(restoreStateOf({ userMode: 'structured', restore: { panel: 'document', document: doc } }, 'document'), { panel: 'document', document: doc });
  assert.deepEqual(restoreStateOf({ restore: { panel: 'studio', design: 'file:///d.xslt', invoice: 'untitled:Untitled-1' } }, 'studio'), { panel: 'studio', design: 'file:///d.xslt', invoice: 'untitled:Untitled-1' });
  assert.deepEqual(restoreStateOf({ restore: { panel: 'studio', design: 'file:///d.xslt', sample: 'invoice-TICARIFATURA.xml', extra: 1 } }, 'studio'), { panel: 'studio', design: 'file:///d.xslt', sample: 'invoice-TICARIFATURA.xml' }, 'rebuilt from the checked fields');
  for (const [state, kind] of [
    [undefined, 'document'],
    [{}, 'document'],
    [{ restore: null }, 'document'],
    [{ restore: { panel: 'document', document: doc } }, 'studio'],
    [{ restore: { panel: 'document', document: doc, design: 'file:///d.xslt' } }, 'studio'],
    [{ restore: { panel: 'studio', design: 'file:///d.xslt' } }, 'document'],
    [{ restore: { panel: 'document', document: '/home/u/invoice.xml' } }, 'document'],
    [{ restore: { panel: 'document', document: `file:///${'a'.repeat(5000)}` } }, 'document'],
    [{ restore: { panel: 'document', document: 42 } }, 'document'],
    [{ restore: { panel: 'studio', design: 'file:///d.xslt', sample: '../../package.json' } }, 'studio'],
    [{ restore: { panel: 'studio', design: 'file:///d.xslt', sample: 'x.xslt' } }, 'studio'],
    [{ restore: { panel: 'studio', design: 'file:///d.xslt', invoice: 'no scheme' } }, 'studio'],
    [[{ restore: { panel: 'document', document: doc } }], 'document'],
  ] as Array<[unknown, 'document' | 'studio']>) assert.equal(restoreStateOf(state, kind), undefined, JSON.stringify(state));
});

test('the page and its policies: nothing from the network, scripts only by nonce, the design frame sandboxed without scripts', () => {
  const html = previewPage({ kind: 'studio', title: 'Design <x>', language: 'tr', cspSource: 'https://*.vscode-cdn.net', scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/preview/main.js', pageNonce: 'PAGE', designNonce: 'DESIGN' });
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];
  assert.equal(policy, "default-src 'none'; script-src 'nonce-PAGE' 'nonce-DESIGN'; style-src https://*.vscode-cdn.net 'unsafe-inline'; img-src https://*.vscode-cdn.net data:; font-src https://*.vscode-cdn.net; connect-src 'none'; form-action 'none'; base-uri 'none'");
  assert.equal(policy, previewPolicy('https://*.vscode-cdn.net', 'PAGE', 'DESIGN'));
  // No permission at all until the studio's user turns scripts on: no scripts, same-origin, popups, forms, modals or top navigation.
  assert.deepEqual([...html.matchAll(/<iframe[^>]*>/g)].map((m) => m[0]), ['<iframe id="design" sandbox="" hidden>']);
  assert.deepEqual([...html.matchAll(/<script[^>]*>/g)].map((m) => m[0]), ['<script nonce="PAGE" src="https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/preview/main.js">'], 'one script, with the page nonce');
  assert.match(html, /<body class="studio" data-design-nonce="DESIGN">/);
  assert.match(html, /<title>Design &lt;x&gt;<\/title>/);
  assert.equal(frameSandbox(false), '');
  assert.equal(frameSandbox(true), 'allow-scripts');
  assert.equal(framePolicy(false), "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'none'; webrtc 'block'");
  assert.equal(framePolicy(true), "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; webrtc 'block'");
});

test('the document preview never lists a design nonce: an invoice\'s design cannot run a script there', () => {
  const html = previewPage({ kind: 'document', title: 'Preview', language: 'en', cspSource: 'https://x', scriptUri: 'https://x/main.js', pageNonce: 'PAGE', designNonce: 'DESIGN' });
  assert.ok(!html.includes('DESIGN'), html);
  assert.match(html, /script-src 'nonce-PAGE'; /);
  assert.match(html, /<body class="document" data-design-nonce="">/);
});

test('a failed transform: XPath 2.0 functions, undeclared variables and a terminating message, with their lines', () => {
  const design = [
    '<xsl:stylesheet version="2.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">', // 1
    '<xsl:variable name="known" select="1"/>', // 2
    '<xsl:template match="/">', // 3
    '<p><xsl:value-of select="format-date(current-date(), \'[D]\')"/></p>', // 4
    '<p><xsl:value-of select="concat($known, $missing, \'upper-case(x)\')"/></p>', // 5
    '<p title="{upper-case(name)}"><xsl:value-of select="format-number(1, \'#\')"/></p>', // 6
    '<xsl:message terminate="yes">stop</xsl:message>', // 7
    '</xsl:template></xsl:stylesheet>',
  ].join('\n');
  assert.deepEqual(likelyCauses(design), [
    { kind: 'xpath2Function', name: 'format-date', line: 4 },
    { kind: 'xpath2Function', name: 'current-date', line: 4 },
    { kind: 'undeclaredVariable', name: 'missing', line: 5 },
    { kind: 'xpath2Function', name: 'upper-case', line: 6 },
    { kind: 'terminatingMessage', line: 7 },
  ]);
  const sample = fs.readFileSync(path.join(root, 'media', 'samples', 'sample-design.xslt'), 'utf8');
  assert.deepEqual(likelyCauses(sample), [], 'the sample design (XSLT 1.0 with format-number) has none');
});

test('the other files a design asks for are listed: xsl:import, xsl:include, document()', () => {
  const refs = externalReferences(fs.readFileSync(path.join(root, 'test', 'fixtures', 'preview', 'importing-design.xslt'), 'utf8'));
  assert.deepEqual(refs, ['SERVER/imported.xsl', 'file://WORKSPACE/included.xsl']);
  const hostile = externalReferences(fs.readFileSync(path.join(root, 'test', 'fixtures', 'preview', 'hostile-design.xslt'), 'utf8'));
  assert.deepEqual(hostile, ['file://WORKSPACE/secret.xml', 'file:///etc/passwd', 'SERVER/leak.xml', 'RESOURCE']);
  assert.deepEqual(externalReferences('<xsl:value-of select="document.title"/><script>document.getElementById(\'x\')</script>'), []);
  // document('') is the design itself, and a comment asks for nothing.
  assert.deepEqual(externalReferences('<!-- once used document(\'old.xml\') --><xsl:value-of select="count(document(\'\'))"/>'), []);
});
