// Stopping a check that a newer text of the same document has made useless (the editor never shows a
// verdict on older text): the engine asks `shouldStop` between its steps and throws GibCheckStopped.
// Plain Node.

/** Asked between the steps of a check; true when its answer is no longer wanted. */
export type ShouldStop = () => boolean;

/** Thrown by a check whose `shouldStop` said so. */
export class GibCheckStopped extends Error {
  constructor() {
    super('the check was stopped: a newer text of the same document is waiting');
  }
}

export function stopIfAsked(shouldStop: ShouldStop | undefined): void {
  if (shouldStop?.()) throw new GibCheckStopped();
}
