// Worker thread entry (dist/registryWords.js): the title-word half of an index build (titleWords.ts),
// fed batches of titles by wordSink.ts. Messages are handled strictly in order.
import { parentPort, workerData } from 'node:worker_threads';
import { TitleWords } from './titleWords';
import type { ToWordsWorker, FromWordsWorker } from './wordSink';

const port = parentPort;
if (!port) throw new Error('registryWords.js runs only as a worker thread');
const { folder, pairsInMemory } = workerData as { folder: string; pairsInMemory: number };
const words = new TitleWords(folder, pairsInMemory);
const send = (message: FromWordsWorker) => port.postMessage(message);

async function handle(message: ToWordsWorker): Promise<void> {
  if (message.kind === 'titles') {
    await words.addTitles(message.titles, message.first);
    send({ kind: 'took', batch: message.batch });
  } else {
    send({ kind: 'finished', words: await words.finish() });
  }
}

let queue = Promise.resolve();
let failed = false;
port.on('message', (message: ToWordsWorker) => {
  queue = queue.then(async () => {
    if (failed) return;
    try {
      await handle(message);
    } catch (error) {
      failed = true;
      send({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  });
});
