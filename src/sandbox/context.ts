// The sandbox's data, shared by every route handler.
import type { Behaviour } from './behaviour';
import type { CustomerStore } from './customerStore';
import type { MutableState, StaticState } from './records';
import type { Registry } from './registry';
import type { PreparedLists } from './registryDownload';

export interface SandboxContext {
  readonly seed: number;
  readonly registry: Registry;
  /** The registry lists' ZIPs kept once built (--keep-lists); undefined: built as each download streams. */
  readonly preparedLists?: PreparedLists;
  readonly customers: CustomerStore;
  readonly state: MutableState;
  readonly statics: StaticState;
  /** The answers to spec-silent points (src/sandbox/behaviour.ts). */
  readonly behaviour: Behaviour;
  /** Call after every change (schedules persistence when a data file is set). */
  changed(): void;
}
