// The document preview in a real extension host (code-server 4.139 and 4.100, the page in the browser):
// the panel opens beside the editor and its page reports the rendering (through the embedded design
// where the webview has XSLT); the page's policy and resource roots; the preview follows the editor to
// another UBL-TR document and not to other files; and the host drops malformed page messages. The UI
// suite (test/e2e/scenarios/preview.test.ts) looks at what the page shows.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, PreviewCommands } from '../../src/constants';

interface PanelInfo {
  kind: 'document' | 'studio';
  viewType: string;
  title: string;
  html: string;
  localResourceRoots: string[];
  capabilities?: { xslt: boolean; engine: string };
  latestSeq: number;
  renders: Array<{ seq: number; mode: string; outcome: string; pageMs: number }>;
}

const root = path.resolve(__dirname, '..', '..', '..');
const sample = (name: string) => vscode.Uri.file(path.join(root, 'media', 'samples', name));

async function hook(arg?: unknown): Promise<PanelInfo[]> {
  return (await vscode.commands.executeCommand<PanelInfo[]>(PreviewCommands.testHook, arg)) ?? [];
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The document panel once its page reported the latest update. */
async function shown(): Promise<PanelInfo> {
  return until(async () => {
    const p = (await hook()).find((x) => x.kind === 'document');
    return p && p.latestSeq > 0 && p.renders.some((r) => r.seq === p.latestSeq) ? p : undefined;
  }, 'the preview to report its rendering');
}

suite('Document preview', function () {
  this.timeout(180_000);

  suiteSetup(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('opens beside the invoice, renders it through its design where the webview has XSLT, under the page policy', async () => {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(sample('invoice-TEMELFATURA.xml')), { viewColumn: vscode.ViewColumn.One });
    await vscode.commands.executeCommand(PreviewCommands.document);
    const panel = await shown();
    assert.equal(panel.viewType, 'nilvera.preview.document');
    assert.equal(panel.title, 'Preview invoice-TEMELFATURA.xml');
    const report = panel.renders.find((r) => r.seq === panel.latestSeq);
    assert.ok(panel.capabilities, 'the page said what it can do');
    assert.equal(report?.outcome, panel.capabilities.xslt ? 'design' : 'structured', JSON.stringify(panel.renders));
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(panel.html)?.[1] ?? '';
    assert.match(policy, /^default-src 'none'; script-src 'nonce-[^']+' 'nonce-[^']+'; /);
    assert.match(policy, /connect-src 'none'/);
    assert.match(panel.html, /<iframe id="design" sandbox="allow-scripts" hidden><\/iframe>/);
    assert.equal(panel.localResourceRoots.length, 1);
    assert.match(panel.localResourceRoots[0], /\/dist\/webview$/, 'the page may load the built webview assets only');
  });

  test('follows the editor to another UBL-TR document, not to other files', async () => {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(sample('sample-design.xslt')), { viewColumn: vscode.ViewColumn.One });
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await shown()).title, 'Preview invoice-TEMELFATURA.xml', 'a design is not a document to follow');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(sample('despatch-advice.xml')), { viewColumn: vscode.ViewColumn.One });
    const followed = await until(async () => {
      const p = await shown();
      return p.title === 'Preview despatch-advice.xml' ? p : undefined;
    }, 'the preview to follow the editor');
    assert.ok(followed.renders.length >= 2);
  });

  test('the host drops malformed page messages and takes well-formed ones', async () => {
    const before = (await shown()).renders.length;
    const bad: unknown[] = [
      null,
      'rendered',
      { type: 'rendered', seq: 1, mode: 'design', ms: 1 },
      { type: 'rendered', seq: 1, mode: 'design', ms: 1, outcome: 'design', extra: true },
      { type: 'rendered', seq: -5, mode: 'design', ms: 1, outcome: 'design' },
      { type: 'rendered', seq: 1, mode: '<script>', ms: 1, outcome: 'design' },
      { type: 'eval', code: 'process.exit()' },
    ];
    for (const message of bad) await hook({ kind: 'document', simulate: message });
    assert.equal((await shown()).renders.length, before, 'no malformed report was taken');
    await hook({ kind: 'document', simulate: { type: 'rendered', seq: 424242, mode: 'structured', ms: 3, outcome: 'structured' } });
    const after = await shown();
    assert.deepEqual(after.renders.slice(before).map((r) => [r.seq, r.outcome]), [[424242, 'structured']]);
  });
});
