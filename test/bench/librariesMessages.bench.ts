// The checks of every message a form or preview page sends (src/webviews/protocol.ts,
// src/preview/protocol.ts) against the same checks written as valibot schemas (messageSchemas.ts), in
// the same run: bytes each adds to the host's bundles, time per message, and what a rejection says.
// As in libraries.bench.ts, each row is the library's figure with ours as the baseline.
// Run: npm run bench -- librariesMessages
import { checkPreviewMessage } from '../../src/preview/protocol';
import { checkPageMessage } from '../../src/webviews/protocol';
import { printBench } from './benchLine';
import { bundleBytes, report } from './libraryFigures';
import { checkWithSchema, formPageSchema, previewPageSchema } from './messageSchemas';

const ROUNDS = 200_000;

const FIELDS = Array.from({ length: 20 }, (_, i) => `field${i}`);
const allowed = new Set([...FIELDS, 'password', 'active']);
const save = {
  type: 'save',
  requestId: 42,
  kind: 'customer',
  recordKey: 'customer:12',
  values: { ...Object.fromEntries(FIELDS.map((f, i) => [f, `Örnek Ticaret Şirketi değer ${i}`])), password: 's3cret', active: true },
};
const rendered = { type: 'rendered', seq: 7, mode: 'design', ms: 12.5, outcome: 'design' };

/** Messages each check must accept (true) or drop (false): both must agree before anything is timed. */
const FORM_CASES: Array<[unknown, boolean]> = [
  [save, true],
  [{ type: 'ready' }, true],
  [{ type: 'draft', dirty: true, values: { field1: 'x' } }, true],
  [{ type: 'lookup', requestId: 1, taxNumber: '1234567890' }, true],
  [{ type: 'save', requestId: -1, values: {} }, false],
  [{ type: 'save', requestId: 1, values: { nope: 'x' } }, false],
  [{ type: 'save', requestId: 1, values: { field1: 5 } }, false],
  [{ type: 'save', requestId: 1, values: { field1: 'x'.repeat(4001) } }, false],
  [{ type: 'reload', requestId: 1, extra: true }, false],
  [{ type: 'ready', kind: 'invoice' }, false],
  [{ type: 'delete' }, false],
  [JSON.parse('{"type":"ready","__proto__":{"x":1}}'), false],
  [[1, 2], false],
];
const PREVIEW_CASES: Array<[unknown, boolean]> = [
  [rendered, true],
  [{ type: 'ready', xslt: true, engine: 'saxon-js 2.7' }, true],
  [{ type: 'scripts', allow: false }, true],
  [{ type: 'mode', mode: 'print' }, false],
  [{ type: 'rendered', seq: 1.5, mode: 'design', ms: 1, outcome: 'design' }, false],
  [{ type: 'upload', file: 'x' }, false],
];

function agree(): void {
  const form = formPageSchema(allowed);
  for (const [message, ok] of FORM_CASES) {
    if (checkPageMessage(message, allowed).ok !== ok || checkWithSchema(form, message).ok !== ok) throw new Error(`the two form checks disagree on ${JSON.stringify(message)}`);
  }
  for (const [message, ok] of PREVIEW_CASES) {
    if (checkPreviewMessage(message).ok !== ok || checkWithSchema(previewPageSchema, message).ok !== ok) throw new Error(`the two preview checks disagree on ${JSON.stringify(message)}`);
  }
}

/** Median over 3 rounds of the time per call, in microseconds. */
function microsPerCall(check: () => unknown): number {
  const times: number[] = [];
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    for (let i = 0; i < ROUNDS; i++) check();
    times.push(((performance.now() - t0) * 1000) / ROUNDS);
  }
  return times.sort((a, b) => a - b)[1];
}

async function main(): Promise<void> {
  agree();
  const form = formPageSchema(allowed);
  const oursSave = microsPerCall(() => checkPageMessage(save, allowed));
  const libSave = microsPerCall(() => checkWithSchema(form, save));
  report('message check: a form save of 22 fields: valibot (time per message)', libSave, 'µs', oursSave);
  const oursRendered = microsPerCall(() => checkPreviewMessage(rendered));
  const libRendered = microsPerCall(() => checkWithSchema(previewPageSchema, rendered));
  report('message check: a preview "rendered" message: valibot (time per message)', libRendered, 'µs', oursRendered);

  const oursBytes = await bundleBytes(
    `import { checkPageMessage } from './src/webviews/protocol'; import { checkPreviewMessage } from './src/preview/protocol'; console.log(checkPageMessage, checkPreviewMessage);`,
    'node',
  );
  const libBytes = await bundleBytes(
    `import { checkWithSchema, formPageSchema, previewPageSchema } from './test/bench/messageSchemas'; console.log(checkWithSchema, formPageSchema, previewPageSchema);`,
    'node',
  );
  report(
    "message check: both pages' checks, valibot (bytes in the host's bundles, minified)",
    libBytes,
    'bytes',
    oursBytes,
    "the pages' own bundles import only the message types from the protocol files: 0 bytes either way",
  );

  // A rejection is logged; what the page sent may be a password, so ours never quotes a value.
  const secret = { type: 'ready', kind: 'hunter2-password' };
  const libReason = checkWithSchema(form, secret);
  const oursReason = checkPageMessage(secret, allowed);
  const quotes = !libReason.ok && libReason.reason.includes('hunter2');
  printBench({
    figure: 'message check: a rejection quotes what the page sent (valibot, default messages)',
    goal: 'report',
    value: quotes ? 1 : 0,
    unit: 'yes=1',
    note: `valibot: ${libReason.ok ? 'accepted' : JSON.stringify(libReason.reason.replace('hunter2-password', '<the value>'))}; ours: ${oursReason.ok ? 'accepted' : JSON.stringify(oursReason.reason)}`,
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
