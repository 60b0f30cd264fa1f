// How long each part of activate() took, for the activation test and `npm run bench -- shell`, which
// print them: the goal for activate() is judged on their sum, and the parts say where it goes (mostly
// the first call of each kind of VS Code registration). A mark costs a performance.now() call.

export interface ActivationStep {
  readonly step: string;
  readonly ms: number;
}

export class ActivationSteps {
  readonly steps: ActivationStep[] = [];
  private readonly started = performance.now();
  private last = this.started;

  /** Ends the step `step` now (it began where the previous one ended). */
  mark(step: string): void {
    const now = performance.now();
    this.steps.push({ step, ms: now - this.last });
    this.last = now;
  }

  /** From the start to the last mark. */
  get totalMs(): number {
    return this.last - this.started;
  }
}
