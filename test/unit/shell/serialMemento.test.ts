// The extension's globalState writer (src/shell/serialMemento.ts), over a step-by-step model of
// VS Code's shared Memento: the extension host keeps the whole object in memory, sends it on a
// timer, and replaces it with every echo the main side sends back before the reply. The test
// drives those steps itself, so the interleaving that loses a profile is reproduced exactly.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { SerialMemento } from '../../../src/shell/serialMemento';

type State = Record<string, unknown>;
const clone = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

/** extHostMemento.ts + mainThreadStorage.ts, one step at a time. */
class SharedMementoModel {
  stored: State = {};
  private value: State = {};
  private unsent: Array<(error?: Error) => void> = [];
  private inFlight: Array<{ snapshot: State; replies: Array<(error?: Error) => void> }> = [];
  private echoes: Array<{ echo: State; replies: Array<(error?: Error) => void> }> = [];
  failNextArrival = false;

  keys(): readonly string[] {
    return Object.keys(this.value).filter((k) => this.value[k] !== undefined);
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    return (this.value[key] as T | undefined) ?? defaultValue;
  }
  update(key: string, value: unknown): Promise<void> {
    this.value[key] = clone(value);
    return new Promise((resolve, reject) => this.unsent.push((error) => (error ? reject(error) : resolve())));
  }
  /** The host's 0 ms timer fires: the whole object, as it is now, goes to the main side. */
  send(): void {
    if (this.unsent.length === 0) return;
    this.inFlight.push({ snapshot: clone(this.value), replies: this.unsent });
    this.unsent = [];
  }
  /** The main side stores it and sends it back to every host as an echo (the reply comes after). */
  arrive(): void {
    const message = this.inFlight.shift();
    if (!message) return;
    if (this.failNextArrival) {
      this.failNextArrival = false;
      for (const reply of message.replies) reply(new Error('storage unavailable'));
      return;
    }
    this.stored = message.snapshot;
    this.echoes.push({ echo: clone(this.stored), replies: message.replies });
  }
  /** The echo reaches the host and replaces its value; then the reply resolves the update. */
  deliver(): void {
    const echo = this.echoes.shift();
    if (!echo) return;
    this.value = echo.echo;
    for (const reply of echo.replies) reply();
  }
  /** Runs every step until nothing is left on the way. */
  async settle(): Promise<void> {
    for (let round = 0; round < 1000; round++) {
      await new Promise((r) => setImmediate(r));
      if (this.unsent.length + this.inFlight.length + this.echoes.length === 0) return;
      this.send();
      this.arrive();
      this.deliver();
    }
    throw new Error('the model did not settle');
  }
}

const ticks = () => new Promise((r) => setImmediate(r));
const LIST_KEY = 'nilvera.templateIds';
type Row = { id: string; name: string };
const profile = (id: string): Row => ({ id, name: id });
const storedIds = (model: SharedMementoModel) => ((model.stored[LIST_KEY] as Row[]) ?? []).map((p) => p.id).sort();

/** A list under one globalState key changed by read-modify-write, as the remembered template IDs are. */
class ListStore {
  constructor(private readonly memento: { get<T>(key: string): T | undefined; update(key: string, value: unknown): Thenable<void> }) {}
  all(): Row[] {
    return this.memento.get<Row[]>(LIST_KEY) ?? [];
  }
  get(id: string): Row | undefined {
    return this.all().find((r) => r.id === id);
  }
  put(row: Row): Thenable<void> {
    return this.memento.update(LIST_KEY, [...this.all().filter((r) => r.id !== row.id), row]);
  }
  remove(id: string): Thenable<void> {
    return this.memento.update(LIST_KEY, this.all().filter((r) => r.id !== id));
  }
}

/** A write not awaited is sent; a second write comes before its echo; the echo lands before the second is sent. */
async function interleave(store: ListStore, model: SharedMementoModel): Promise<void> {
  void store.put(profile('test'));
  await ticks();
  model.send();
  model.arrive();
  const second = store.put(profile('production'));
  await ticks();
  model.deliver();
  await ticks();
  model.send();
  model.arrive();
  model.deliver();
  await model.settle();
  await second;
}

test('the model reproduces the loss: straight to the shared Memento, the second write is overwritten by the first one\'s echo', async () => {
  const model = new SharedMementoModel();
  await interleave(new ListStore(model), model);
  assert.deepEqual(storedIds(model), ['test'], 'the model must show the failure the wrapper exists for');
});

test('through SerialMemento the same interleaving stores both records', async () => {
  const model = new SharedMementoModel();
  const store = new ListStore(new SerialMemento(model));
  await interleave(store, model);
  assert.deepEqual(storedIds(model), ['production', 'test']);
  assert.deepEqual(store.all().map((p) => p.id).sort(), ['production', 'test']);
});

test('reads see queued writes at once, so twenty puts issued together are all kept', async () => {
  const model = new SharedMementoModel();
  const store = new ListStore(new SerialMemento(model));
  const puts = Array.from({ length: 20 }, (_, i) => store.put(profile(`p-${String(i).padStart(2, '0')}`)));
  assert.equal(store.all().length, 20, 'a read right after the calls sees every record');
  await model.settle();
  await Promise.all(puts);
  assert.equal(storedIds(model).length, 20);
  const changes = [store.remove('p-03'), store.remove('p-07'), store.put({ ...profile('p-05'), name: 'renamed' })];
  await model.settle();
  await Promise.all(changes);
  assert.equal(storedIds(model).length, 18);
  assert.equal(store.get('p-05')?.name, 'renamed');
});

test('writes to different keys go one at a time too (the echo carries every key)', async () => {
  const model = new SharedMementoModel();
  const memento = new SerialMemento(model);
  const first = memento.update('nilvera.registry.userType', 'DespatchAdvice');
  const second = memento.update('nilvera.templateIds', [{ ID: 7 }]);
  await ticks();
  model.send();
  model.send();
  assert.deepEqual(Object.keys(model.stored), [], 'nothing arrived yet');
  model.arrive();
  model.deliver();
  await first;
  await model.settle();
  await second;
  assert.deepEqual(model.stored, { 'nilvera.registry.userType': 'DespatchAdvice', 'nilvera.templateIds': [{ ID: 7 }] });
});

test('a failed write rejects its caller, the value falls back to what is stored, and later writes still go', async () => {
  const model = new SharedMementoModel();
  const memento = new SerialMemento(model);
  await Promise.all([memento.update('a', 1), model.settle()]);
  model.failNextArrival = true;
  const failing = assert.rejects(memento.update('b', 2), /storage unavailable/);
  const next = memento.update('c', 3);
  await model.settle();
  await failing;
  await next;
  assert.deepEqual(model.stored, { a: 1, b: 2, c: 3 }, 'the whole object goes with the next write, as in VS Code');
  assert.equal(memento.get('c'), 3);
});

test('keys(), defaults, removal and copies behave as a Memento', async () => {
  const model = new SharedMementoModel();
  const memento = new SerialMemento(model);
  const value = { list: [1, 2] };
  const written = memento.update('x', value);
  value.list.push(3);
  assert.deepEqual(memento.get('x'), { list: [1, 2] }, 'a later change to the caller\'s object is not stored');
  assert.deepEqual(memento.keys(), ['x']);
  assert.equal(memento.get('missing', 'fallback'), 'fallback');
  const removed = memento.update('x', undefined);
  assert.deepEqual(memento.keys(), [], 'a queued removal hides the key at once');
  assert.equal(memento.get('x', 'gone'), 'gone');
  await model.settle();
  await Promise.all([written, removed]);
  assert.deepEqual(memento.keys(), []);
});

test('nothing in src reaches the context\'s globalState except ShellServices, which wraps it', () => {
  const root = path.join(__dirname, '..', '..', '..', '..', 'src');
  const offenders: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && /\b(?:context|extension)\.globalState\b/.test(fs.readFileSync(full, 'utf8'))) offenders.push(path.relative(root, full));
    }
  };
  walk(root);
  assert.deepEqual(offenders, [path.join('shell', 'services.ts')], 'context.globalState is reached only where the serial writer wraps it');
});
