// The sandbox's data, shared by every route handler.
import type { CustomerStore } from './customerStore';
import type { MutableState, StaticState } from './records';
import type { Registry } from './registry';

export interface SandboxContext {
  readonly seed: number;
  readonly registry: Registry;
  readonly customers: CustomerStore;
  readonly state: MutableState;
  readonly statics: StaticState;
  /** Call after every change (schedules persistence when a data file is set). */
  changed(): void;
}
