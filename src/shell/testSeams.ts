// What other extensions can reach. Every installed extension runs in the same extension host and can
// read our `exports` and run any registered command with arguments of its choosing. So the hooks the
// extension-host tests use (the services, the prompt seam, the trees, the `nilvera.internal.*`
// commands, the scripted arguments of palette commands) exist only when VS Code runs the extension
// in Test mode (extensionTestsPath): never in an installed VSIX (Production) or under a debugger
// (Development). SECURITY.md says what this protects.
import * as vscode from 'vscode';

/** The prefix of the commands only the tests and benchmarks call. */
export const INTERNAL_COMMAND_PREFIX = 'nilvera.internal.';

/** Whether this window runs the extension for the extension-host tests. Set once by activate(). */
let seamsOpen = false;

/** Opens the seams only in Test mode; returns whether they are open. */
export function openTestSeamsFor(mode: vscode.ExtensionMode): boolean {
  seamsOpen = testSeamsAllowed(mode);
  return seamsOpen;
}

export function testSeamsAllowed(mode: vscode.ExtensionMode): boolean {
  return mode === vscode.ExtensionMode.Test;
}

export function testSeamsOpen(): boolean {
  return seamsOpen;
}

/**
 * Test hook: makes commands treat their callers as a production build does (no scripted arguments,
 * internal commands refuse) until the returned function is called. The hostile-caller test runs
 * every command of ours this way.
 */
export function actAsProduction(): () => void {
  const before = seamsOpen;
  seamsOpen = false;
  return () => {
    seamsOpen = before;
  };
}

export function isInternalCommand(id: string): boolean {
  return id.startsWith(INTERNAL_COMMAND_PREFIX);
}

/** The command ids to register with VS Code in `mode`: no internal one outside Test mode. */
export function commandIdsFor(mode: vscode.ExtensionMode, ids: readonly string[]): string[] {
  return testSeamsAllowed(mode) ? [...ids] : ids.filter((id) => !isInternalCommand(id));
}

/** What every caller may read from activate(): the activation time and its parts, nothing else. */
export interface PublicExports {
  activationMs: number;
  activationSteps: ReadonlyArray<{ step: string; ms: number }>;
}

/** Events the extension-host tests count (how often the GİB rules worker started); counted only while the seams are open. */
export type CountedEvent = 'gibWorkerStarts';
const counts = new Map<CountedEvent, number>();

export function countForTests(event: CountedEvent): void {
  if (seamsOpen) counts.set(event, (counts.get(event) ?? 0) + 1);
}

/** What `testing.counted` gives the tests: how often `event` happened in this window so far. */
export interface CountedEvents {
  counted(event: CountedEvent): number;
}

/**
 * activate()'s return value in `mode`: the public figures, plus the test seams (and the counted
 * events) in Test mode only. The seams are built only when they are handed out.
 */
export function extensionExports<T extends object>(mode: vscode.ExtensionMode, figures: PublicExports, seams: () => T): PublicExports | (PublicExports & { testing: T & CountedEvents }) {
  const open = { activationMs: figures.activationMs, activationSteps: figures.activationSteps.map((s) => ({ step: s.step, ms: s.ms })) };
  return testSeamsAllowed(mode) ? { ...open, testing: { ...seams(), counted: (event: CountedEvent) => counts.get(event) ?? 0 } } : open;
}

/**
 * The arguments of a command that acts on the account or writes files: our own (built with
 * `ownArgs`), or, while the test seams are open, the tests' scripted ones. Anything else another
 * extension passes is dropped, so the command asks the user as if run from the palette.
 */
export function trustedArgs<T extends object>(arg: unknown): Partial<T> {
  if (typeof arg !== 'object' || arg === null || arg instanceof vscode.Uri) return {};
  return ours.has(arg) || seamsOpen ? (arg as Partial<T>) : {};
}

/** A file the tests name (while the seams are open); no menu of ours passes one to a command that writes. */
export function trustedUri(arg: unknown): vscode.Uri | undefined {
  return seamsOpen && arg instanceof vscode.Uri ? arg : undefined;
}

/** A plain value (an id, a target) the tests pass, while the seams are open; otherwise the command asks. */
export function trustedValue<T>(arg: T): T | undefined {
  return seamsOpen ? arg : undefined;
}

/** Arguments objects our own code made; another extension cannot add to this set. */
const ours = new WeakSet<object>();

/** Marks `args` as made by this extension (a command run by our own code, in this extension host). */
export function ownArgs<T extends object>(args: T): T {
  ours.add(args);
  return args;
}
