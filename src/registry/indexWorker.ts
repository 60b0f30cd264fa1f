// Worker thread entry (dist/registryIndexWorker.js): the writing half of an index build, the record
// blocks (recordBlocks.ts) and the title words (titleWords.ts), fed batches of taxpayers by
// indexSink.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { IndexWriter, type ToIndexWorker } from './indexSink';

const port = parentPort;
if (!port) throw new Error('registryIndexWorker.js runs only as a worker thread');
const { folder, pairsInMemory } = workerData as { folder: string; pairsInMemory: number };
const writer = new IndexWriter(folder, pairsInMemory, (answer) => {
  // An encoded batch's buffer goes back (transferred) to be reused.
  port.postMessage(answer, answer.kind === 'took' && answer.spare ? [answer.spare] : []);
});
port.on('message', (message: ToIndexWorker) => writer.receive(message));
