// Polls `probe` every 50 ms until it gives a value other than undefined or false (a condition gives
// true), and returns that value; after `timeoutMs` fails naming `what`. The extension-host suite waits
// this way for what VS Code does in its own time (diagnostics, panels, settings, secrets).
export async function waitFor<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
