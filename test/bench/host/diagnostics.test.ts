// Measurement for test/bench/diagnostics.bench.ts, run inside the real extension host: a 5 MB UBL-TR
// invoice is opened, then edited 20 times (one digit of the supplier's VKN, alternately wrong and
// right). Reported: the scan time the extension host spends per update (its event loop is busy that
// long; typing itself runs in the renderer) and the edit → diagnostics-changed round trip, which
// includes the 200 ms debounce. Skipped unless NILVERA_DIAGNOSTICS_BENCH=1.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DiagnosticsCommands, EXTENSION_ID } from '../../../src/constants';
import type { DiagnosticsTestState } from '../../../src/editor/diagnostics/register';
import { largeInvoice } from '../../support/largeInvoice';
import { suiteLog } from '../../suite/report';

const TARGET_BYTES = 5 * 1024 * 1024;
const EDITS = 20;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const round = (n: number) => Math.round(n * 10) / 10;

function errorCount(uri: vscode.Uri): number {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Nilvera' && d.severity === vscode.DiagnosticSeverity.Error).length;
}

/** Resolves when the document's Nilvera error count becomes `count`; the time it took. */
function errorsBecome(uri: vscode.Uri, count: number, timeoutMs = 20_000): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const check = () => {
      if (errorCount(uri) !== count) return false;
      sub.dispose();
      clearTimeout(timer);
      resolve(performance.now() - started);
      return true;
    };
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === uri.toString())) check();
    });
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`diagnostics did not reach ${count} errors`));
    }, timeoutMs);
    check();
  });
}

suite('Editor diagnostics benchmark', function () {
  this.timeout(300_000);

  test('diagnostics benchmark: 5 MB invoice, first scan and updates after small edits', async function () {
    if (process.env.NILVERA_DIAGNOSTICS_BENCH !== '1') this.skip();
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-diag-bench-'));
    const file = path.join(tmp, 'large-invoice.xml');
    const text = largeInvoice(path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'ubl-tr-invoice-bad-customer-vkn.xml'), TARGET_BYTES);
    fs.writeFileSync(file, text);
    try {
      const openStarted = performance.now();
      const doc = await vscode.workspace.openTextDocument(file);
      const editor = await vscode.window.showTextDocument(doc, { preview: false });
      await errorsBecome(doc.uri, 1);
      const firstVisibleMs = performance.now() - openStarted;
      const hook = () => vscode.commands.executeCommand<DiagnosticsTestState>(DiagnosticsCommands.testHook);
      const firstScan = (await hook()).timings.filter((t) => t.uri === doc.uri.toString()).at(-1);
      assert.ok(firstScan, 'no scan recorded');

      const supplier = doc.getText().indexOf('4540536920');
      const lastDigit = new vscode.Range(doc.positionAt(supplier + 9), doc.positionAt(supplier + 10));
      const roundTrips: number[] = [];
      for (let i = 0; i < EDITS; i++) {
        const wrong = i % 2 === 0;
        const done = errorsBecome(doc.uri, wrong ? 2 : 1);
        const started = performance.now();
        await editor.edit((e) => e.replace(lastDigit, wrong ? '7' : '0'));
        await done;
        roundTrips.push(performance.now() - started);
      }
      const updates = (await hook()).timings.filter((t) => t.uri === doc.uri.toString()).slice(-EDITS);
      assert.equal(updates.length, EDITS);
      const scans = updates.map((t) => t.ms);
      const cpu = updates.map((t) => t.cpuMs);
      const figures = {
        bytes: Buffer.byteLength(text),
        firstScanMs: round(firstScan.ms),
        firstScanCpuMs: round(firstScan.cpuMs),
        openToDiagnosticsMs: round(firstVisibleMs),
        updateScanMedianMs: round(percentile(scans, 50)),
        updateScanP95Ms: round(percentile(scans, 95)),
        updateScanMaxMs: round(Math.max(...scans)),
        updateCpuMedianMs: round(percentile(cpu, 50)),
        updateCpuP95Ms: round(percentile(cpu, 95)),
        loadAverage: os.loadavg().map(round),
        roundTripMedianMs: round(percentile(roundTrips, 50)),
        roundTripP95Ms: round(percentile(roundTrips, 95)),
        debounceMs: 200,
      };
      suiteLog(`[diagnostics-bench] ${JSON.stringify(figures)}`);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
