// What the customer and record commands work with: the API client and the trees to refresh.
import type { ClientSource } from '../views/clientSource';
import type { NilveraTrees } from '../views/trees';
import { UserCancelledError } from '../shell/prompts';

export interface CommandContext {
  client: ClientSource;
  trees: NilveraTrees;
}

/** An answer or a UserCancelledError (the command wrapper ends the command silently). */
export function required<T>(value: T | undefined): T {
  if (value === undefined) throw new UserCancelledError();
  return value;
}
