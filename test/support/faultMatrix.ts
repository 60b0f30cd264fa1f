// The fault matrix of the reliability suite: which faults and operation classes exist, how an
// observed outcome is written as a cell, and the printed table. Cells are filled from what a test
// observed; expectations live in the test, apart from this.

import type { FaultKind, RequestLogEntry } from '../../src/sandbox/types';

/** A fault column: the sandbox kind, or latency beyond the client's time limit. */
export type MatrixFault = 'timeout' | FaultKind;

export const MATRIX_FAULTS: readonly MatrixFault[] = ['timeout', 'reset', '500', '503', '429', 'malformed', 'truncate', 'truncatedZip', 'corruptZip'];

/** Faults that only the registry ZIP download can meet. */
export const ZIP_ONLY_FAULTS: ReadonlySet<MatrixFault> = new Set(['truncatedZip', 'corruptZip']);

export const COLUMN_TITLES: Record<MatrixFault, string> = {
  timeout: 'latency>timeout',
  reset: 'reset',
  '500': '500',
  '503': '503+Retry-After',
  '429': '429+Retry-After',
  malformed: 'malformed JSON',
  truncate: 'truncated body',
  truncatedZip: 'truncated ZIP',
  corruptZip: 'corrupt ZIP',
};

/**
 * What a cell can say:
 *  - `retried✓`: the fault was met, the call was repeated and succeeded;
 *  - `ok`: succeeded in one attempt (the fault did not bite);
 *  - `error:<kind>`: a single call failed with that NilveraApiError kind;
 *  - `unknown-outcome`: a bulk write whose faulted batch is reported as unknown outcome;
 *  - `rejected:<status>`: a bulk write whose faulted batch the server refused;
 *  - `batch-failed:<kind>`: a bulk lookup whose faulted batch is reported failed;
 *  - `n/a`: the fault cannot happen for the operation (not run).
 */
export type Cell = string;

export class FaultMatrix {
  private readonly cells = new Map<string, Map<MatrixFault, Cell>>();

  constructor(private readonly rows: readonly string[]) {
    for (const r of rows) this.cells.set(r, new Map());
  }

  set(row: string, fault: MatrixFault, cell: Cell): void {
    const cells = this.cells.get(row);
    if (!cells) throw new Error(`unknown matrix row ${row}`);
    cells.set(fault, cell);
  }

  get(row: string, fault: MatrixFault): Cell | undefined {
    return this.cells.get(row)?.get(fault);
  }

  /** A fixed-width text table; a pair that did not run (a failed test) shows `not run`. */
  render(): string {
    const header = ['operation class', ...MATRIX_FAULTS.map((f) => COLUMN_TITLES[f])];
    const body = this.rows.map((r) => [r, ...MATRIX_FAULTS.map((f) => this.get(r, f) ?? 'not run')]);
    const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
    const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join(' | ');
    return [line(header), widths.map((w) => '-'.repeat(w)).join('-+-'), ...body.map(line)].join('\n');
  }
}

/** The cell of a single call: success after one or more attempts, or the error's kind. */
export function singleCallCell(outcome: { ok: true; attempts: number } | { ok: false; kind: string }): Cell {
  if (outcome.ok) return outcome.attempts > 1 ? 'retried✓' : 'ok';
  return `error:${outcome.kind}`;
}

/** Requests of the sandbox log for one method and path pattern. */
export function requestsTo(log: ReadonlyArray<RequestLogEntry>, method: string, path: RegExp): RequestLogEntry[] {
  return log.filter((e) => e.method === method && path.test(e.path));
}
