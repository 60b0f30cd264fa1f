// scripts/bench-report.js, which `npm run bench` uses: the `BENCH {...}` lines the benchmarks print,
// read back (malformed ones told apart), and the one table at the end of the run with its verdicts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { BenchFigure } from '../../bench/benchLine';

/** A BENCH line as the benchmarks write it (test/bench/benchLine.ts), read back with its bench and ratio. */
interface Figure extends BenchFigure {
  bench?: string;
  ratio?: number;
}
interface Malformed {
  bench?: string;
  malformed: string;
  line: string;
}
interface Report {
  parseBenchLine(line: string): Figure | Malformed | undefined;
  collectBenchLines(output: string, bench: string): { figures: Figure[]; malformed: Malformed[] };
  verdict(f: Figure): string;
  isNotMet(f: Figure): boolean;
  formatNumber(n: number): string;
  formatTable(figures: Figure[], malformed?: Malformed[], extra?: string[][]): string;
}

// This bundle runs from out/test/unit/; the script is loaded from the repository as it is.
const root = path.resolve(__dirname, '..', '..', '..', '..');
const report = createRequire(path.join(root, 'package.json'))('./scripts/bench-report.js') as Report;

const output = [
  'node v20.20.2, load average 1.2 on 2 cores',
  'index 96.2 MB for a 87.1 MB ZIP: 1.10× (goal ≤ 1.2×)',
  'BENCH {"figure":"registry index on disk","goal":"≤ 1.2× the ZIP","value":96.2,"unit":"MB","baseline":87.1,"ratio":1.104,"met":true}',
  'BENCH {"figure":"registry download + index to searchable","goal":"≤ 12 s","value":55.54,"unit":"s","met":false}',
  'BENCH {"figure":"ext.activate() resolved","goal":"report","value":41.5,"unit":"ms"}',
  'BENCH {"figure":"views: first page median","goal":"≤ 200 ms","skipped":"code-server is not installed"}',
  'BENCH {"figure":"broken", "goal": "≤ 1 ms", "value": 3',
  'BENCH {"figure":"no verdict","goal":"≤ 1 ms","value":0.5,"unit":"ms"}',
  'BENCHMARK {"not":"a BENCH line"}',
  '  BENCH {"indented":"lines are not BENCH lines either"}',
].join('\n');

test('lines that are not BENCH lines are left alone', () => {
  assert.equal(report.parseBenchLine('index 96.2 MB for a 87.1 MB ZIP'), undefined);
  assert.equal(report.parseBenchLine('BENCHMARK {}'), undefined);
  assert.equal(report.parseBenchLine(''), undefined);
});

test('a figure with a goal, a same-run baseline and its ratio', () => {
  assert.deepEqual(report.parseBenchLine('BENCH {"figure":"f","goal":"≤ 1.25×","value":14.6,"unit":"s","baseline":11.7,"ratio":1.248,"met":true}\r'), {
    figure: 'f',
    goal: '≤ 1.25×',
    value: 14.6,
    unit: 's',
    baseline: 11.7,
    ratio: 1.248,
    met: true,
  });
});

test('collects the figures of one benchmark and tells the malformed lines apart', () => {
  const { figures, malformed } = report.collectBenchLines(output, 'registryIndex');
  assert.deepEqual(
    figures.map((f) => [f.bench, f.figure, report.verdict(f)]),
    [
      ['registryIndex', 'registry index on disk', 'met'],
      ['registryIndex', 'registry download + index to searchable', 'NOT MET'],
      ['registryIndex', 'ext.activate() resolved', 'report'],
      ['registryIndex', 'views: first page median', 'skipped (code-server is not installed)'],
    ],
  );
  assert.deepEqual(
    malformed.map((m) => [m.bench, m.line.slice(0, 25)]),
    [
      ['registryIndex', 'BENCH {"figure":"broken",'],
      ['registryIndex', 'BENCH {"figure":"no verdi'],
    ],
  );
  assert.match(malformed[0].malformed, /not JSON/);
  assert.match(malformed[1].malformed, /"met"/);
  assert.deepEqual(figures.map(report.isNotMet), [false, true, false, false]);
});

test('malformed figures: each reason', () => {
  const reason = (json: string) => {
    const r = report.parseBenchLine(`BENCH ${json}`);
    assert.ok(r && 'malformed' in r, `${json} should be malformed`);
    return r.malformed;
  };
  assert.match(reason('[1, 2]'), /not a JSON object/);
  assert.match(reason('{"goal":"report","value":1,"unit":"s"}'), /figure/);
  assert.match(reason('{"figure":"f","value":1,"unit":"s"}'), /goal/);
  assert.match(reason('{"figure":"f","goal":"report","value":"1","unit":"s"}'), /value/);
  assert.match(reason('{"figure":"f","goal":"report","value":null,"unit":"s"}'), /value/);
  assert.match(reason('{"figure":"f","goal":"report","value":1}'), /unit/);
  assert.match(reason('{"figure":"f","goal":"report","value":1,"unit":"s","met":true}'), /without a goal/);
  assert.match(reason('{"figure":"f","goal":"≤ 1","value":1,"unit":"s","met":"yes"}'), /met/);
  assert.match(reason('{"figure":"f","goal":"≤ 1","value":1,"unit":"s","met":true,"ratio":"1.1"}'), /ratio/);
  assert.match(reason('{"figure":"f","goal":"≤ 1","skipped":""}'), /reason/);
});

test('the table: one row per figure, with value, baseline and ratio, goal and verdict, then the totals', () => {
  const { figures, malformed } = report.collectBenchLines(output, 'registryIndex');
  const table = report.formatTable(figures, malformed, [['views', '(printed no BENCH line)', '—', '', '—', 'bench FAILED']]);
  const lines = table.split('\n');
  const cells = (line: string) => line.split('|').slice(1, -1).map((c) => c.trim());
  assert.deepEqual(cells(lines[0]), ['bench', 'figure', 'value', 'same-run baseline', 'goal', 'result']);
  assert.match(lines[1], /^\|-+\|-+\|/);
  assert.deepEqual(cells(lines[2]), ['registryIndex', 'registry index on disk', '96.2 MB', '87.1 MB, ratio 1.104×', '≤ 1.2× the ZIP', 'met']);
  assert.deepEqual(cells(lines[3]), ['registryIndex', 'registry download + index to searchable', '55.54 s', '', '≤ 12 s', 'NOT MET']);
  assert.deepEqual(cells(lines[4]), ['registryIndex', 'ext.activate() resolved', '41.5 ms', '', 'report', 'report']);
  assert.deepEqual(cells(lines[5]), ['registryIndex', 'views: first page median', '—', '', '≤ 200 ms', 'skipped (code-server is not installed)']);
  assert.deepEqual(cells(lines[6]), ['views', '(printed no BENCH line)', '—', '', '—', 'bench FAILED']);
  // Every row is as wide as the header: the columns line up.
  assert.equal(new Set(lines.slice(0, 7).map((l) => l.length)).size, 1);
  assert.match(lines[7], /^malformed BENCH line from registryIndex: not JSON/);
  assert.match(lines[8], /^malformed BENCH line from registryIndex: "met"/);
  assert.equal(lines[9], '4 figure(s): 1 met, 1 NOT MET, 1 report only, 1 skipped; 2 malformed BENCH line(s)');
});

test('a note says what was measured when it is not what the goal is about', () => {
  const f = report.parseBenchLine('BENCH {"figure":"download + index","goal":"report","value":10.1,"unit":"s","note":"300,000 taxpayers; the goal ≤ 12 s is for 1.5 M"}');
  assert.ok(f && !('malformed' in f));
  assert.match(report.formatTable([f]), /\| download \+ index \[300,000 taxpayers; the goal ≤ 12 s is for 1\.5 M\] \| 10\.1 s \|/);
});

test('numbers: three decimals at most, fewer as they grow; ratios with ×', () => {
  assert.deepEqual([0.0724, 1.104, 29.834, 202.46, 3050.4, 1_500_000].map(report.formatNumber), ['0.072', '1.104', '29.83', '202.5', '3,050', '1,500,000']);
  const f = report.parseBenchLine('BENCH {"figure":"r","goal":"report","value":1.4691,"unit":"x"}');
  assert.ok(f && !('malformed' in f));
  assert.match(report.formatTable([f]), /\| 1\.469× \|/);
});
