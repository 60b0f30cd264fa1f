// How a sandbox process ends. In a terminal: Ctrl-C or SIGTERM. Started by the extension (a child with an
// IPC channel): a {type: 'shutdown'} message, answered with {event: 'stopped', saved} once the last
// changes are saved (SIGTERM on Windows ends a process at once, so it is not what stops it), and the
// channel's disconnect: the parent ended or crashed, so no sandbox outlives its window.
export interface StoppedMessage {
  event: 'stopped';
  /** Whether every change is saved (false: the data file stayed held, or could not be written). */
  saved: boolean;
  /** Why not, when not. */
  failure?: string;
}

export function stopWhenAsked(sandbox: { close(): Promise<void>; saveFailure?(): string | undefined }): void {
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    sandbox.close().then(
      () => {
        const failure = sandbox.saveFailure?.();
        const answer: StoppedMessage = { event: 'stopped', saved: failure === undefined, ...(failure ? { failure } : {}) };
        if (process.connected) process.send?.(answer, () => process.exit(0));
        else process.exit(0);
      },
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (process.send) {
    process.on('message', (message) => {
      if ((message as { type?: unknown } | null)?.type === 'shutdown') stop();
    });
    process.on('disconnect', stop);
  }
}
