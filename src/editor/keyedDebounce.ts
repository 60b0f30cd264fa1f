// One pending run per document: a new schedule for a key replaces the one waiting.
export class KeyedDebounce {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  /** Runs `run` after `delayMs` unless `key` is scheduled again or cancelled before then. */
  schedule(key: string, delayMs: number, run: () => void): void {
    this.cancel(key);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        run();
      }, delayMs),
    );
  }

  cancel(key: string): void {
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
