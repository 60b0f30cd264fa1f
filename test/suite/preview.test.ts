// The document preview in a real extension host (code-server 4.139 and 4.100, the page in the browser):
// the panel opens beside the editor and its page reports the rendering (through the embedded design
// where the webview has XSLT); the page's policy and resource roots; the preview follows the editor to
// another UBL-TR document and not to other files; the host drops malformed page messages; and a panel
// handed back after a window reload (the serializers' second half, as VS Code calls it) shows its
// document again. The UI suite (test/e2e/scenarios/preview.test.ts) looks at what the page shows and
// reloads the window for real.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, PreviewCommands } from '../../src/constants';
import { waitFor } from '../support/waitFor';

interface PanelInfo {
  kind: 'document' | 'studio';
  design?: string;
  invoice?: string;
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

/** The suite's waits are longer than test/support/waitFor.ts's default. */
const until = <T>(probe: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> => waitFor(probe, what, timeoutMs);

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
    // The document preview never runs a design's scripts: one nonce (the page's own), and a frame
    // sandboxed with no permission at all (a design cannot talk to anyone).
    assert.match(policy, /^default-src 'none'; script-src 'nonce-[^']+'; /);
    assert.match(policy, /connect-src 'none'/);
    assert.match(panel.html, /<iframe id="design" sandbox="" hidden><\/iframe>/);
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

  test('a panel VS Code hands back after a window reload shows what its page kept; one whose document is gone, or whose state is not ours, closes', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until(async () => ((await hook()).length === 0 ? true : undefined), 'the previews to close');
    const despatch = sample('despatch-advice.xml');
    // The page's state as it keeps it: its own keys beside the restore state the host sent it.
    await hook({ restore: { viewType: 'nilvera.preview.document', state: { userMode: 'structured', restore: { panel: 'document', document: despatch.toString() } } } });
    const restored = await shown();
    assert.equal(restored.title, 'Preview despatch-advice.xml');
    assert.equal(restored.viewType, 'nilvera.preview.document');

    // A second document panel (one preview follows the editor), a missing file, a foreign state: each closes at once.
    const missing = vscode.Uri.file(path.join(root, 'media', 'samples', 'no-such-invoice.xml')).toString();
    for (const state of [
      { restore: { panel: 'document', document: sample('invoice-TEMELFATURA.xml').toString() } },
      undefined,
      { restore: { panel: 'studio', design: despatch.toString() } },
      { restore: { panel: 'document', document: 'not a uri' } },
    ]) {
      await hook({ restore: { viewType: 'nilvera.preview.document', state } });
      const panels = await hook();
      assert.deepEqual(panels.map((p) => [p.kind, p.title]), [['document', 'Preview despatch-advice.xml']], JSON.stringify(state));
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until(async () => ((await hook()).length === 0 ? true : undefined), 'the preview to close');
    await hook({ restore: { viewType: 'nilvera.preview.document', state: { restore: { panel: 'document', document: missing } } } });
    assert.deepEqual(await hook(), [], 'a document that is gone: no panel');

    // The template studio: its design and the built-in sample it showed, found by name in this installation.
    const design = sample('sample-design.xslt');
    await hook({ restore: { viewType: 'nilvera.preview.studio', state: { restore: { panel: 'studio', design: design.toString(), sample: 'invoice-TICARIFATURA.xml' } } } });
    const studio = await until(async () => {
      const p = (await hook()).find((x) => x.kind === 'studio');
      return p && p.latestSeq > 0 && p.renders.some((r) => r.seq === p.latestSeq) ? p : undefined;
    }, 'the studio to report its rendering');
    assert.equal(studio.title, 'Design sample-design.xslt with invoice-TICARIFATURA.xml');
    assert.equal(studio.design, design.toString());
    assert.equal(studio.invoice, sample('invoice-TICARIFATURA.xml').toString());
    const another = vscode.Uri.file(path.join(root, 'test', 'fixtures', 'preview', 'importing-design.xslt')).toString();
    await hook({ restore: { viewType: 'nilvera.preview.studio', state: { restore: { panel: 'studio', design: another, sample: '../../package.json' } } } });
    assert.deepEqual((await hook()).filter((p) => p.kind === 'studio').map((p) => p.design), [design.toString()], 'a sample name that leaves the samples folder is refused');
  });
});
