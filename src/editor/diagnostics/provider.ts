// Keeps the "Nilvera" diagnostics of open UBL-TR documents and CSV files current: on open, on edit
// (debounced per document: a burst of typing costs one scan), on close, on a settings change and when
// an offline registry index changes. A scan is synchronous and linear on any text, finished or
// half-typed (test/bench/diagnostics.bench.ts); a run scheduled for an older version of the text is dropped.
import * as vscode from 'vscode';
import type { RegistryDocumentType } from '../../domain/ubl/documentTypes';
import type { OfflineRegistry } from '../../registry/offlineLookup';
import { scanCsv } from '../../domain/csvScan';
import { findingMessage } from './messages';
import { csvFindings, documentFindings, encodingFindings, type Finding } from './rules';
import { scanUbl } from './ublScan';

import { DIAGNOSTIC_SOURCE } from '../selectors';
import { KeyedDebounce } from '../keyedDebounce';

/** 'invoice': UBL-TR XML documents of every type (setting nilvera.editor.invoiceDiagnostics); 'csv': customer lists. */
export type DocumentKind = 'invoice' | 'csv';

export interface DiagnosticsOptions {
  /** The shared offline registry of a document type's lists (Invoice, DespatchAdvice), created on first use. */
  registry(documentType: RegistryDocumentType): OfflineRegistry;
  enabled(kind: DocumentKind): boolean;
  /** Quiet time after the last edit before a document is scanned again. */
  debounceMs: number;
}

const SCHEMES = new Set(['file', 'untitled', 'vscode-remote', 'vscode-userdata']);

/** Which rules apply to a document, by language or file name; undefined for every other document. */
export function documentKind(doc: vscode.TextDocument): DocumentKind | undefined {
  if (!SCHEMES.has(doc.uri.scheme)) return undefined;
  if (doc.languageId === 'xml' || /\.xml$/i.test(doc.fileName)) return 'invoice';
  if (doc.languageId === 'csv' || doc.languageId === 'tsv' || /\.(csv|tsv)$/i.test(doc.fileName)) return 'csv';
  return undefined;
}

const SEVERITY: Record<Finding['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
};

function toDiagnostic(doc: vscode.TextDocument, f: Finding): vscode.Diagnostic {
  const range = new vscode.Range(doc.positionAt(f.start), doc.positionAt(f.end));
  const d = new vscode.Diagnostic(range, findingMessage(vscode.l10n, f), SEVERITY[f.severity]);
  d.source = DIAGNOSTIC_SOURCE;
  d.code = f.code;
  return d;
}

export interface ScanTiming {
  uri: string;
  ms: number;
  cpuMs: number;
  length: number;
}

export class TaxNumberDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('nilvera');
  private readonly pending = new KeyedDebounce();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly registrySubscriptions = new Map<RegistryDocumentType, { dispose(): void }>();
  /** Figures of the last updates, for the benchmark: wall and CPU milliseconds, text length. */
  readonly timings: ScanTiming[] = [];

  constructor(private readonly options: DiagnosticsOptions) {
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((doc) => this.schedule(doc, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0) this.schedule(e.document, this.options.debounceMs);
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => this.forget(doc.uri)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('nilvera.editor')) this.refreshAll();
      }),
    );
  }

  /** Scans every open document (at start-up and after a settings or registry change). */
  refreshAll(only?: DocumentKind): void {
    for (const doc of vscode.workspace.textDocuments) if (!only || documentKind(doc) === only) this.schedule(doc, 0);
  }

  schedule(doc: vscode.TextDocument, delayMs: number): void {
    const kind = documentKind(doc);
    if (!kind) return;
    const version = doc.version;
    this.pending.schedule(doc.uri.toString(), delayMs, () => {
      // A newer edit has its own run scheduled; a closed document keeps no diagnostics.
      if (!doc.isClosed && doc.version === version) this.update(doc, kind);
    });
  }

  /** Scans now and publishes; returns the diagnostics set. */
  update(doc: vscode.TextDocument, kind: DocumentKind | undefined = documentKind(doc)): vscode.Diagnostic[] {
    if (!kind || !this.options.enabled(kind)) {
      this.collection.delete(doc.uri);
      return [];
    }
    const started = performance.now();
    const cpu = process.cpuUsage();
    const text = doc.getText();
    const diagnostics = this.findingsOf(kind, text).map((f) => toDiagnostic(doc, f));
    this.collection.set(doc.uri, diagnostics);
    const cpuUsed = process.cpuUsage(cpu);
    this.timings.push({ uri: doc.uri.toString(), ms: performance.now() - started, cpuMs: (cpuUsed.user + cpuUsed.system) / 1000, length: text.length });
    if (this.timings.length > 200) this.timings.splice(0, this.timings.length - 200);
    return diagnostics;
  }

  /** The findings of a text; a UBL-TR document's numbers are looked up in the downloaded registry lists. */
  private findingsOf(kind: DocumentKind, text: string): Finding[] {
    if (kind === 'invoice') {
      return documentFindings(scanUbl(text), (documentType) => {
        const registry = this.registry(documentType);
        return registry.hasIndex() ? (taxNumber: string) => registry.lookup(taxNumber) : undefined;
      });
    }
    const scan = scanCsv(text);
    return [...encodingFindings(text, scan), ...csvFindings(scan)];
  }

  private registry(documentType: RegistryDocumentType): OfflineRegistry {
    const registry = this.options.registry(documentType);
    // A new download (or a deleted index) changes what the documents say.
    if (!this.registrySubscriptions.has(documentType)) this.registrySubscriptions.set(documentType, registry.onDidChange(() => this.refreshAll('invoice')));
    return registry;
  }

  private forget(uri: vscode.Uri): void {
    this.pending.cancel(uri.toString());
    this.collection.delete(uri);
  }

  dispose(): void {
    this.pending.dispose();
    for (const s of this.registrySubscriptions.values()) s.dispose();
    this.registrySubscriptions.clear();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.collection.dispose();
  }
}
