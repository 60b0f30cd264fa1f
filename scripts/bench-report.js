// The figures of `npm run bench`: each benchmark prints one machine-readable line per figure it
// measures, and scripts/bench.js collects them into one table at the end of the run.
//
//   BENCH {"figure": "...", "value": 0.93, "unit": "ms", "goal": "≤ 1 ms", "met": true}
//
// Fields: figure (text), value (number), unit (text), goal (text; "report" when the figure has no goal,
// and then no `met`), met (boolean, when there is a goal). Optional: baseline (a same-run baseline in
// the same unit) and ratio (value / baseline, the figure a ratio goal is about), note (what was measured
// when it differs from what the goal is about, such as a smaller size). A figure that could not be
// measured has `skipped` (the reason) instead of value, unit and met.
'use strict';

const PREFIX = 'BENCH ';

/**
 * One line of a benchmark's output: undefined when it is not a BENCH line, else the figure, or
 * `{ malformed: reason, line }` when it starts with "BENCH " but does not hold a valid figure.
 */
function parseBenchLine(line) {
  const text = line.replace(/\r$/, '');
  if (!text.startsWith(PREFIX)) return undefined;
  const bad = (reason) => ({ malformed: reason, line: text });
  let f;
  try {
    f = JSON.parse(text.slice(PREFIX.length));
  } catch (e) {
    return bad(`not JSON (${e.message})`);
  }
  if (f === null || typeof f !== 'object' || Array.isArray(f)) return bad('not a JSON object');
  if (typeof f.figure !== 'string' || f.figure === '') return bad('no "figure"');
  if (typeof f.goal !== 'string' || f.goal === '') return bad('no "goal" (use "report" for a figure without one)');
  const out = { figure: f.figure, goal: f.goal };
  if (f.note !== undefined) {
    if (typeof f.note !== 'string') return bad('"note" is not text');
    out.note = f.note;
  }
  if (f.skipped !== undefined) {
    if (typeof f.skipped !== 'string' || f.skipped === '') return bad('"skipped" must give the reason');
    out.skipped = f.skipped;
    return out;
  }
  if (typeof f.value !== 'number' || !Number.isFinite(f.value)) return bad('"value" is not a finite number');
  if (typeof f.unit !== 'string') return bad('no "unit"');
  out.value = f.value;
  out.unit = f.unit;
  if (f.goal === 'report') {
    if (f.met !== undefined) return bad('"met" given for a figure without a goal');
  } else {
    if (typeof f.met !== 'boolean') return bad('"met" is not true or false');
    out.met = f.met;
  }
  for (const key of ['baseline', 'ratio']) {
    if (f[key] === undefined) continue;
    if (typeof f[key] !== 'number' || !Number.isFinite(f[key])) return bad(`"${key}" is not a finite number`);
    out[key] = f[key];
  }
  return out;
}

/** Every BENCH line of one benchmark's output: its figures (tagged with `bench`) and the malformed lines. */
function collectBenchLines(output, bench) {
  const figures = [];
  const malformed = [];
  for (const line of output.split('\n')) {
    const r = parseBenchLine(line);
    if (r === undefined) continue;
    if ('malformed' in r) malformed.push({ bench, ...r });
    else figures.push({ bench, ...r });
  }
  return { figures, malformed };
}

/** "met", "NOT MET", "report" or "skipped (reason)". */
function verdict(f) {
  if (f.skipped !== undefined) return `skipped (${f.skipped})`;
  if (f.goal === 'report') return 'report';
  return f.met ? 'met' : 'NOT MET';
}

/** True when a figure with a goal was measured and missed it. */
function isNotMet(f) {
  return f.skipped === undefined && f.goal !== 'report' && f.met === false;
}

/** A number as the table shows it: three significant decimals at most, no trailing zeros. */
function formatNumber(n) {
  const abs = Math.abs(n);
  const digits = abs >= 1000 ? 0 : abs >= 100 ? 1 : abs >= 10 ? 2 : 3;
  return Number(n.toFixed(digits)).toLocaleString('en', { maximumFractionDigits: digits });
}

function withUnit(n, unit) {
  if (unit === 'x' || unit === '×') return `${formatNumber(n)}×`;
  return unit ? `${formatNumber(n)} ${unit}` : formatNumber(n);
}

/** The rows of the table, as cells. */
function tableRows(figures) {
  return figures.map((f) => {
    const measured = f.skipped !== undefined ? '—' : withUnit(f.value, f.unit);
    const parts = [];
    if (f.baseline !== undefined) parts.push(`${withUnit(f.baseline, f.unit)}`);
    if (f.ratio !== undefined) parts.push(`ratio ${formatNumber(f.ratio)}×`);
    const figure = f.note ? `${f.figure} [${f.note}]` : f.figure;
    return [f.bench ?? '', figure, measured, parts.join(', ') || '', f.goal, verdict(f)];
  });
}

/**
 * The one table of a run: bench | figure | value | same-run baseline, ratio | goal | result, then one
 * line per malformed BENCH line. `extra` rows (already cells) are appended, such as a benchmark that
 * printed no figure.
 */
function formatTable(figures, malformed = [], extra = []) {
  const header = ['bench', 'figure', 'value', 'same-run baseline', 'goal', 'result'];
  const rows = [...tableRows(figures), ...extra];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  const out = [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)];
  for (const m of malformed) out.push(`malformed BENCH line from ${m.bench ?? '?'}: ${m.malformed}: ${m.line}`);
  const missed = figures.filter(isNotMet).length;
  const skipped = figures.filter((f) => f.skipped !== undefined).length;
  out.push(
    `${figures.length} figure(s): ${figures.filter((f) => verdict(f) === 'met').length} met, ${missed} NOT MET, ` +
      `${figures.filter((f) => verdict(f) === 'report').length} report only, ${skipped} skipped` +
      (malformed.length ? `; ${malformed.length} malformed BENCH line(s)` : ''),
  );
  return out.join('\n');
}

module.exports = { parseBenchLine, collectBenchLines, verdict, isNotMet, formatNumber, formatTable };
