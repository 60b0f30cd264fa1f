// Measurement for test/bench/preview.bench.ts, inside the real extension host with the webview in
// code-server's browser: (1) the template studio with the sample design and an invoice of 1 MB (and, as the
// same-run baseline, the sample invoice itself, a few KB): the time from an edit of the design to the
// page's report that the new rendering is shown (debounce, reading, postMessage, XSLT, the frame's load);
// (2) "Preview Document" on a 20 MB invoice in the structured view: the time from the command to the
// page's report. Skipped unless NILVERA_PREVIEW_BENCH=1.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, PreviewCommands } from '../../../src/constants';
import { largeInvoice } from '../../support/largeInvoice';
import { suiteLog } from '../../suite/report';

const EDITS = 12;
const root = path.resolve(__dirname, '..', '..', '..', '..');
const sample = (name: string) => path.join(root, 'media', 'samples', name);

interface PanelInfo {
  kind: 'document' | 'studio';
  latestSeq: number;
  renders: Array<{ seq: number; mode: string; outcome: string; pageMs: number; at: number }>;
}

const panels = async () => (await vscode.commands.executeCommand<PanelInfo[]>(PreviewCommands.testHook)) ?? [];

/** Waits for the page's report of an update after `afterSeq` with `outcome`; the report. */
async function rendered(kind: PanelInfo['kind'], afterSeq: number, outcome: string, timeoutMs = 120_000): Promise<PanelInfo['renders'][number]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const panel = (await panels()).find((p) => p.kind === kind);
    const report = panel?.renders.find((r) => r.seq > afterSeq && r.outcome === outcome);
    if (report) return report;
    if (Date.now() > until) throw new Error(`no ${outcome} rendering of the ${kind} panel after update ${afterSeq}: ${JSON.stringify(panel?.renders.slice(-3))}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const round = (n: number) => Math.round(n * 10) / 10;

/** Edits the design EDITS times (a label, alternately changed and back) and times each edit → shown. */
async function editRounds(editor: vscode.TextEditor): Promise<{ total: number[]; page: number[] }> {
  const doc = editor.document;
  const at = doc.getText().indexOf('Ödenecek Tutar');
  assert.ok(at > 0);
  const range = new vscode.Range(doc.positionAt(at), doc.positionAt(at + 'Ödenecek'.length));
  const total: number[] = [];
  const page: number[] = [];
  for (let i = 0; i < EDITS; i++) {
    const before = (await panels()).find((p) => p.kind === 'studio')?.latestSeq ?? 0;
    const started = performance.now();
    await editor.edit((e) => e.replace(range, i % 2 === 0 ? 'Ödenmeli' : 'Ödenecek'));
    const report = await rendered('studio', before, 'design');
    total.push(report.at - started);
    page.push(report.pageMs);
  }
  return { total, page };
}

suite('Preview benchmark', function () {
  this.timeout(900_000);

  test('preview benchmark: design edit → updated preview (1 MB invoice), structured view of a 20 MB invoice', async function () {
    if (process.env.NILVERA_PREVIEW_BENCH !== '1') this.skip();
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-preview-bench-'));
    try {
      const designFile = path.join(tmp, 'design.xslt');
      fs.copyFileSync(sample('sample-design.xslt'), designFile);
      const smallInvoice = sample('invoice-TEMELFATURA.xml');
      const mbInvoice = path.join(tmp, 'invoice-1mb.xml');
      fs.writeFileSync(mbInvoice, largeInvoice(smallInvoice, 1024 * 1024));
      const bigInvoice = path.join(tmp, 'invoice-20mb.xml');
      // Without an embedded design, so the preview opens in the structured view.
      fs.writeFileSync(bigInvoice, largeInvoice(path.join(root, 'test', 'fixtures', 'ubl-tr-invoice-valid.xml'), 20 * 1024 * 1024));

      const design = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(designFile), { preview: false });
      const figures: Record<string, unknown> = { debounceMs: 300, edits: EDITS };
      for (const [name, invoice] of [['small', smallInvoice], ['1mb', mbInvoice]] as const) {
        const before = (await panels()).find((p) => p.kind === 'studio')?.latestSeq ?? 0;
        const opened = performance.now();
        await vscode.commands.executeCommand(PreviewCommands.design, { design: designFile, invoice });
        const first = await rendered('studio', before, 'design');
        const rounds = await editRounds(design);
        figures[name] = {
          bytes: fs.statSync(invoice).size,
          openToShownMs: round(first.at - opened),
          editToShownMedianMs: round(percentile(rounds.total, 50)),
          editToShownP95Ms: round(percentile(rounds.total, 95)),
          pageMedianMs: round(percentile(rounds.page, 50)),
        };
      }
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');

      const big = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(bigInvoice), { preview: false });
      const started = performance.now();
      await vscode.commands.executeCommand(PreviewCommands.document, big.document.uri);
      const shown = await rendered('document', 0, 'structured');
      figures.structured20mb = { bytes: Buffer.byteLength(big.document.getText()), commandToShownMs: round(shown.at - started), pageMs: round(shown.pageMs) };
      figures.loadAverage = os.loadavg().map(round);
      suiteLog(`[preview-bench] ${JSON.stringify(figures)}`);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
