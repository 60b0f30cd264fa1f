// The sandbox's data, shared by every route handler.
import type { Behaviour } from './behaviour';
import type { CustomerStore } from './customerStore';
import { notFound, unprocessable } from './errors';
import type { MutableState, StaticState } from './records';
import type { Registry } from './registry';
import type { PreparedLists } from './registryDownload';
import { parseInt32 } from './validate';

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

/** DELETE …/{ID} from a list of the state: 400 for a bad ID, 422 for one below 1 when `positive`, 404 unknown. */
export function deleteById(app: SandboxContext, list: { ID: number }[], param: string, what: string, positive = false) {
  const id = parseInt32(param, 'ID');
  if (positive && id < 1) throw unprocessable('ID must be positive.', `ID ${id}`);
  const index = list.findIndex((r) => r.ID === id);
  if (index < 0) throw notFound(`${what} not found.`, `ID ${id}`);
  list.splice(index, 1);
  app.changed();
  return true;
}
