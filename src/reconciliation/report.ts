// Pure: a run's rows grouped by status, with the changes since the previous run's snapshot.
import type { ReconRow } from './classify';
import type { RunResult } from './run';
import { diffRuns, snapshotOf, type Changes, type Snapshot } from './snapshot';

/** A run's figures (RunResult), its rows by status, and the changes since the previous run. */
export interface ReconciliationReport
  extends Pick<RunResult, 'source' | 'indexDate' | 'listRequests' | 'lookupRequests' | 'classifyMs'> {
  baseUrl: string;
  /** ISO time the run finished. */
  takenAt: string;
  totalCustomers: number;
  users: ReconRow[];
  notUsers: ReconRow[];
  invalid: ReconRow[];
  /** Lookups that failed (online only): not classified, not counted as changes. */
  unchecked: ReconRow[];
  /** Undefined on the first run for this environment (no previous result). */
  changes?: Changes;
  previousAt?: string;
}

export function buildReport(baseUrl: string, takenAt: string, run: RunResult, previous: Snapshot | undefined, profileId?: string): { report: ReconciliationReport; snapshot: Snapshot } {
  // The run's figures carry over as they are; its count of unchecked rows becomes the rows themselves.
  const { rows: _rows, unchecked: _unchecked, ...figures } = run;
  const report: ReconciliationReport = {
    baseUrl,
    takenAt,
    ...figures,
    totalCustomers: run.rows.length,
    users: [],
    notUsers: [],
    invalid: [],
    unchecked: [],
  };
  const groups = { user: report.users, notUser: report.notUsers, invalid: report.invalid, unchecked: report.unchecked };
  for (const row of run.rows) groups[row.status].push(row);
  if (previous) {
    report.changes = diffRuns(previous, run.rows);
    report.previousAt = previous.takenAt;
  }
  return { report, snapshot: snapshotOf(baseUrl, takenAt, run.rows, previous, profileId) };
}
