// One writer at a time for the extension's globalState (ShellServices.globalState is the one instance).
// Why: VS Code echoes each write back to the host as the whole stored object, and a write issued while
// an earlier one is on its way can be replaced by that echo and lost, whatever key it was for (seen on
// VS Code 1.100: a profile switch and the key migration wrote close together, and a profile vanished).
// Here a write starts only once the one before it is confirmed, and reads see the writes still queued.
import type * as vscode from 'vscode';

export class SerialMemento implements vscode.Memento {
  private tail: Promise<unknown> = Promise.resolve();
  /** The newest queued value of each key whose write is not confirmed yet. */
  private readonly queued = new Map<string, { value: unknown }>();

  constructor(private readonly inner: vscode.Memento) {}

  keys(): readonly string[] {
    const keys = new Set(this.inner.keys());
    for (const [key, { value }] of this.queued) {
      if (value === undefined) keys.delete(key);
      else keys.add(key);
    }
    return [...keys];
  }

  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  get<T>(key: string, defaultValue?: T): T | undefined {
    const queued = this.queued.get(key);
    const value = (queued ? queued.value : this.inner.get<T>(key)) as T | undefined;
    return value === undefined ? defaultValue : value;
  }

  update(key: string, value: unknown): Promise<void> {
    // Stored values go through JSON, as VS Code's own Memento does: a caller changing its object
    // afterwards changes nothing stored.
    const entry = { value: value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown) };
    this.queued.set(key, entry);
    const write = this.tail.then(() => this.inner.update(key, entry.value));
    this.tail = write.catch(() => undefined);
    return write.finally(() => {
      if (this.queued.get(key) === entry) this.queued.delete(key);
    });
  }
}
