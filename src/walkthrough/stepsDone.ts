// Tells VS Code that a step of the "Get Started with Nilvera" walkthrough was done. Not only through the
// steps' completion events (package.json): VS Code's walkthrough service listens only once a walkthrough
// or the Welcome page was opened, and an `onContext:` key already true at registration never completes
// its step (gettingStartedService registerDoneListeners, VS Code 1.100 and 1.139). welcome.markStepComplete
// stores the step even before then (and rejects); global state keeps those told, so each is told once.
import * as vscode from 'vscode';
import { EXTENSION_ID } from '../constants';

export const WALKTHROUGH_ID = 'nilvera.gettingStarted';
/** Global state key: the steps VS Code confirmed as done. */
export const STEPS_TOLD_STATE = 'nilvera.walkthrough.stepsTold';

/** The walkthrough's steps (contributes.walkthroughs[0].steps[].id). */
export type WalkthroughStep = 'connect' | 'customers' | 'checkTaxNumber' | 'downloadRegistry' | 'invoice';

/** The steps whose completion event is a context key of ours (`onContext:` in package.json). */
const STEP_CONTEXT: Partial<Record<WalkthroughStep, string>> = {
  downloadRegistry: 'nilvera.walkthrough.registryDownloaded',
  invoice: 'nilvera.walkthrough.invoiceChecked',
};

let memento: vscode.Memento | undefined;
const doneThisSession = new Set<WalkthroughStep>();

/** At activation: where the steps VS Code confirmed are remembered. */
export function useWalkthroughState(globalState: vscode.Memento): void {
  memento = globalState;
}

function told(): string[] {
  const stored = memento?.get<unknown>(STEPS_TOLD_STATE);
  return Array.isArray(stored) ? stored.filter((s): s is string => typeof s === 'string') : [];
}

/** A step really happened: the walkthrough shows it checked now or whenever it is opened later. */
export function walkthroughStepDone(step: WalkthroughStep): void {
  if (doneThisSession.has(step)) return;
  doneThisSession.add(step);
  const key = STEP_CONTEXT[step];
  if (key) void vscode.commands.executeCommand('setContext', key, true);
  if (told().includes(step)) return;
  // VS Code names a step `<publisher.name>#<walkthrough>#<step>`.
  const id = `${EXTENSION_ID}#${WALKTHROUGH_ID}#${step}`;
  Promise.resolve(vscode.commands.executeCommand('welcome.markStepComplete', id)).then(
    () => {
      const list = told();
      return list.includes(step) ? undefined : memento?.update(STEPS_TOLD_STATE, [...list, step]);
    },
    // Stored, but our walkthrough is not registered yet in this window; or the command is missing
    // (then the completion events still work while the walkthrough is open). Told again next session.
    () => undefined,
  ).catch(() => undefined);
}
