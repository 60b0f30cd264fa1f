// Worker thread entry (dist/registryIndexWorker.js): the writing half of an index build, the record
// blocks (recordBlocks.ts) and the title words (titleWords.ts), fed batches of taxpayers by
// indexSink.ts. Messages are handled strictly in order.
import { parentPort, workerData } from 'node:worker_threads';
import { writeEncoded, type FromIndexWorker, type ToIndexWorker } from './indexSink';
import { RecordBlocks } from './recordBlocks';
import { TitleWords } from './titleWords';

const port = parentPort;
if (!port) throw new Error('registryIndexWorker.js runs only as a worker thread');
const { folder, pairsInMemory } = workerData as { folder: string; pairsInMemory: number };
const words = new TitleWords(folder, pairsInMemory);
const records = RecordBlocks.create(folder);
const send = (message: FromIndexWorker) => port.postMessage(message);

async function handle(message: ToIndexWorker): Promise<void> {
  if (message.kind === 'taxpayers') {
    const blocks = await records;
    for (const block of message.blocks) await blocks.add(block);
    await words.addTitles(message.titles, message.first);
    send({ kind: 'took', batch: message.batch });
  } else if (message.kind === 'encoded') {
    await writeEncoded(await records, words, message);
    port!.postMessage({ kind: 'took', batch: message.batch, spare: message.buffer } satisfies FromIndexWorker, [message.buffer]);
  } else {
    await (await records).finish();
    send({ kind: 'finished', words: await words.finish() });
  }
}

let queue = Promise.resolve();
let failed = false;
records.catch(() => undefined); // a failure to create records.z is reported by the first message
port.on('message', (message: ToIndexWorker) => {
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
