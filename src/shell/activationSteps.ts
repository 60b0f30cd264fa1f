// How long each part of activate() took, for the activation test and `npm run bench -- shell`, which
// print them: the goal for activate() is judged on their sum, and the parts say where it goes (mostly
// the first call of each kind of VS Code registration). A mark costs a performance.now() call.
//
// In the extension-host tests (Test mode) on Linux each mark also reads how long this thread has
// waited for a core so far (run_delay, the second field of /proc/thread-self/schedstat: the kernel adds
// each wait when the thread gets a core back, so it is exact whenever the thread itself reads it), and
// each part's time on the CPU is its wall time less that wait: what activate() costs without the
// preemption by other threads (on a 2-core machine, the extension host's own V8 workers) that makes
// single wall times bimodal. The first field (time on the CPU) is not used: Linux updates it for a
// running thread only at a scheduler tick (every 4 ms here) or a context switch, so it moves in steps
// as long as activate() itself. A mark then costs one pread() of that file, about 3 µs.
import * as fs from 'node:fs';

export interface ActivationStep {
  readonly step: string;
  readonly ms: number;
}

/** activate()'s main thread while it ran: its time on the CPU, whole and by part, and what held it up. */
export interface ActivationThread {
  /** Wall time less the time spent waiting for a core, whole and by part (the same parts as the steps). */
  readonly onCpuMs: number;
  readonly steps: readonly ActivationStep[];
  /** Time spent runnable but waiting for a core (preempted), and how many times it got one. */
  readonly waitedMs: number;
  readonly slices: number;
  /** Context switches of the thread between the first and the last mark (read just outside them). */
  readonly voluntarySwitches: number;
  readonly nonvoluntarySwitches: number;
}

/** The calling thread's scheduler counters, or undefined where /proc/thread-self is not there (not Linux). */
function threadClock() {
  let fd: number;
  try {
    fd = fs.openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    return undefined;
  }
  const buffer = Buffer.alloc(96);
  return {
    /** Nanoseconds spent waiting for a core so far, and the number of times the thread got one. */
    waited() {
      const fields = buffer.toString('latin1', 0, fs.readSync(fd, buffer, 0, buffer.length, 0)).split(' ');
      return { ns: Number(fields[1]), slices: Number(fields[2]) };
    },
    switches() {
      const status = fs.readFileSync('/proc/thread-self/status', 'latin1');
      const count = (name: string) => Number(new RegExp(`^${name}:\\s*(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN);
      return { voluntary: count('voluntary_ctxt_switches'), nonvoluntary: count('nonvoluntary_ctxt_switches') };
    },
    close: () => fs.closeSync(fd),
  };
}

export class ActivationSteps {
  readonly steps: ActivationStep[] = [];
  private readonly clock: ReturnType<typeof threadClock>;
  private readonly switchesBefore: { voluntary: number; nonvoluntary: number } | undefined;
  private readonly waits: Array<{ ns: number; slices: number }> = [];
  private readonly started: number;
  private last: number;

  /** `onCpu`: also measure the thread's time on the CPU (the tests and benchmarks only). */
  constructor(onCpu = false) {
    this.clock = onCpu ? threadClock() : undefined;
    this.switchesBefore = this.clock?.switches();
    this.started = performance.now();
    this.last = this.started;
    if (this.clock) this.waits.push(this.clock.waited());
  }

  /** Ends the step `step` now (it began where the previous one ended). */
  mark(step: string): void {
    const now = performance.now();
    if (this.clock) this.waits.push(this.clock.waited());
    this.steps.push({ step, ms: now - this.last });
    this.last = now;
  }

  /** From the start to the last mark. */
  get totalMs(): number {
    return this.last - this.started;
  }

  /** The thread's figures from the start to the last mark, when measured; stops measuring. */
  thread(): ActivationThread | undefined {
    const clock = this.clock;
    if (!clock || this.waits.length !== this.steps.length + 1) return undefined;
    const after = clock.switches();
    clock.close();
    const before = this.switchesBefore ?? after;
    const waitedMs = (i: number) => (this.waits[i + 1].ns - this.waits[i].ns) / 1e6;
    const steps = this.steps.map((s, i) => ({ step: s.step, ms: s.ms - waitedMs(i) }));
    const first = this.waits[0];
    const lastWait = this.waits[this.waits.length - 1];
    const waited = (lastWait.ns - first.ns) / 1e6;
    return {
      onCpuMs: this.totalMs - waited,
      steps,
      waitedMs: waited,
      slices: lastWait.slices - first.slices,
      voluntarySwitches: after.voluntary - before.voluntary,
      nonvoluntarySwitches: after.nonvoluntary - before.nonvoluntary,
    };
  }
}
