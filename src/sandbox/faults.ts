// Fault injection: a plan decides, per request, whether to add latency and which failure to fake.
import type { FaultKind, FaultPhase, FaultPlan } from './types';

export const FAULT_PHASES = ['before', 'after', 'either', 'late'] as const;

export const FAULT_KINDS = ['500', '503', '429', 'reset', 'truncate', 'malformed', 'corruptZip', 'truncatedZip'] as const;

/** Faults that change the registry ZIP inside an otherwise normal answer (applied by that route). */
export type ZipFaultKind = Extract<FaultKind, 'corruptZip' | 'truncatedZip'>;

export interface FaultDecision {
  latencyMs: number;
  /** Whether the fault (and latency) strikes before the handler runs, after it stored its change, or before it stores it late. */
  phase: Exclude<FaultPhase, 'either'>;
  fault?: FaultKind;
  retryAfterSeconds: number;
}

export class FaultInjector {
  private plan: FaultPlan = {};
  private pathPattern: RegExp | undefined;

  constructor(private readonly random: () => number = Math.random) {}

  set(plan: FaultPlan): void {
    validatePlan(plan);
    this.plan = { ...plan, queue: plan.queue ? [...plan.queue] : undefined };
    this.pathPattern = plan.match?.path ? new RegExp(plan.match.path, 'i') : undefined;
  }

  clear(): void {
    this.plan = {};
    this.pathPattern = undefined;
  }

  current(): FaultPlan {
    return this.plan;
  }

  /** What to do with one request; consumes a queue item when the request matches. */
  decide(method: string, path: string): FaultDecision | undefined {
    const p = this.plan;
    if (!p.latencyMs && !p.rates && !p.queue?.length) return undefined;
    if (p.match?.method && p.match.method.toUpperCase() !== method.toUpperCase()) return undefined;
    if (this.pathPattern && !this.pathPattern.test(path)) return undefined;
    const phase = p.phase === 'either' ? (this.random() < 0.5 ? 'before' : 'after') : (p.phase ?? 'before');
    const decision: FaultDecision = { latencyMs: p.latencyMs ?? 0, phase, retryAfterSeconds: p.retryAfterSeconds ?? 1 };
    const queued = p.queue?.shift();
    if (queued !== undefined) {
      if (typeof queued === 'object') decision.latencyMs += queued.latencyMs;
      else decision.fault = queued;
      return decision;
    }
    if (p.rates) {
      // One draw per request: the rates share the unit interval, so they add up rather than overlap.
      let r = this.random();
      for (const kind of FAULT_KINDS) {
        const rate = p.rates[kind] ?? 0;
        if (r < rate) {
          decision.fault = kind;
          break;
        }
        r -= rate;
      }
    }
    return decision.fault || decision.latencyMs ? decision : undefined;
  }
}

export function validatePlan(plan: unknown): asserts plan is FaultPlan {
  if (plan === null || typeof plan !== 'object' || Array.isArray(plan)) throw new TypeError('fault plan must be an object');
  const p = plan as FaultPlan;
  if (p.latencyMs !== undefined && !(typeof p.latencyMs === 'number' && p.latencyMs >= 0)) throw new TypeError('latencyMs must be a number >= 0');
  if (p.rates !== undefined) {
    if (typeof p.rates !== 'object' || p.rates === null) throw new TypeError('rates must be an object');
    for (const [k, v] of Object.entries(p.rates)) {
      if (!FAULT_KINDS.includes(k as FaultKind)) throw new TypeError(`unknown fault kind ${k}`);
      if (typeof v !== 'number' || v < 0 || v > 1) throw new TypeError(`rate of ${k} must be 0..1`);
    }
  }
  if (p.queue !== undefined) {
    if (!Array.isArray(p.queue)) throw new TypeError('queue must be an array');
    for (const q of p.queue) {
      const ok = typeof q === 'string' ? FAULT_KINDS.includes(q) : typeof q === 'object' && q !== null && typeof q.latencyMs === 'number';
      if (!ok) throw new TypeError(`bad queue item ${JSON.stringify(q)}`);
    }
  }
  if (p.phase !== undefined && !FAULT_PHASES.includes(p.phase)) throw new TypeError(`phase must be one of: ${FAULT_PHASES.join(', ')}`);
  if (p.match?.path !== undefined) new RegExp(p.match.path, 'i');
}
