// The GİB rules worker (dist/gibWorker.js, a worker_threads entry): the engine off the extension
// host's thread. One `load`, then `validate` requests answered in order; one that the shared `stop`
// memory asks to stop is answered `stopped` (workerClient.ts). After each answer the XPath the check
// parsed from text is stored for the next worker (parsedXPathFile.ts).

import { parentPort } from 'node:worker_threads';
import type { GibEngine } from './engine';
import { engineFrom } from './engineSource';
import type { FromGibWorker, ToGibWorker } from './workerProtocol';
import { GibCheckStopped } from './checkStop';

const port = parentPort;
if (port) {
  let engine: Promise<GibEngine | undefined> | undefined;
  let stop: Int32Array | undefined;
  const send = (m: FromGibWorker): void => port.postMessage(m);
  port.on('message', async (m: ToGibWorker) => {
    if (m.kind === 'load') {
      stop = m.stop ? new Int32Array(m.stop) : undefined;
      engine = engineFrom(m.source);
      try {
        const e = await engine;
        send({ kind: 'loaded', release: e?.release, hasRules: e?.hasRules ?? false, hasSchemas: e?.hasSchemas ?? false });
      } catch (err) {
        send({ kind: 'loadFailed', message: (err as Error)?.message ?? String(err) });
      }
      return;
    }
    let e: GibEngine | undefined;
    try {
      e = await engine;
      if (!e) throw new Error('no GİB rules are loaded');
      const shouldStop = stop ? (): boolean => Atomics.load(stop!, 0) === m.id : undefined;
      send({ kind: 'result', id: m.id, validation: await e.validate(m.text, { shouldStop }) });
    } catch (err) {
      if (err instanceof GibCheckStopped) send({ kind: 'stopped', id: m.id });
      else send({ kind: 'failed', id: m.id, message: (err as Error)?.message ?? String(err) });
    }
    // After the findings are posted: what this check parsed from text is stored for the next worker.
    await e?.storeParsedXPath?.();
  });
}
