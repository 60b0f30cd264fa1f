// The one bridge from VS Code's cancellation to the AbortSignal the API client and file writers take.
import * as vscode from 'vscode';

export type ProgressReporter = vscode.Progress<{ message?: string; increment?: number }>;

/** A signal aborted as soon as any of the tokens is cancelled (or already is); dispose stops listening. */
export function abortSignalOf(...tokens: Array<vscode.CancellationToken | undefined>): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const subscriptions = tokens.map((token) => token?.onCancellationRequested(() => controller.abort()));
  if (tokens.some((token) => token?.isCancellationRequested)) controller.abort();
  return { signal: controller.signal, dispose: () => subscriptions.forEach((s) => s?.dispose()) };
}

/** Runs work under a cancellable notification: its Cancel button, or the caller's token, aborts the signal. */
export function withCancellableProgress<T>(title: string, work: (signal: AbortSignal, progress: ProgressReporter) => Promise<T>, caller?: vscode.CancellationToken): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    const abort = abortSignalOf(token, caller);
    try {
      return await work(abort.signal, progress);
    } finally {
      abort.dispose();
    }
  });
}
