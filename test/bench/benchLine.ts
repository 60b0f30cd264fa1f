// The one writer of the machine-readable `BENCH {...}` lines every benchmark prints (read back by
// scripts/bench-report.js for the table at the end of `npm run bench`). Numbers are rounded to three
// decimals; a same-run baseline adds the ratio; a figure without a goal ("report") carries no `met`.
export interface BenchFigure {
  figure: string;
  /** The goal as written ("≤ 80 KB"), or "report". */
  goal: string;
  value?: number;
  unit?: string;
  met?: boolean;
  /** A same-run baseline in the value's unit; the line then gets `ratio` too. */
  baseline?: number;
  note?: string;
  /** Why the figure was not measured (instead of value, unit and met). */
  skipped?: string;
}

const round = (n: number) => Number(n.toFixed(3));

export function printBench(f: BenchFigure): void {
  const line: Record<string, unknown> = { figure: f.figure, goal: f.goal };
  if (f.skipped !== undefined) {
    line.skipped = f.skipped;
  } else {
    if (f.value !== undefined) line.value = round(f.value);
    if (f.unit !== undefined) line.unit = f.unit;
    if (f.goal !== 'report' && f.met !== undefined) line.met = f.met;
    if (f.baseline !== undefined) {
      line.baseline = round(f.baseline);
      if (f.value !== undefined) line.ratio = round(f.value / f.baseline);
    }
  }
  if (f.note !== undefined) line.note = f.note;
  console.log(`BENCH ${JSON.stringify(line)}`);
}
