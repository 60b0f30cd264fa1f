// What Check Connection found about the lists that may answer 404 when they are empty (README,
// "Where the API documentation is silent", row 20): per server address, whether each list operation
// exists there ('offered') or not ('missing'). The views read it when a list answers a bare 404,
// which by itself cannot tell an empty list from a missing operation. Kept in global state, so every
// window and later session knows it; a new Check Connection replaces what it saw.
import type * as vscode from 'vscode';

export const EMPTY_LIST_READS = ['certificates.list', 'identifications.list', 'documents.list', 'customers.list'] as const;
export type EmptyListRead = (typeof EMPTY_LIST_READS)[number];
export type ListAvailability = 'offered' | 'missing';

const STATE_KEY = 'nilvera.listAvailability';
/** Addresses remembered (a sandbox gets a new port every session): the most recent ones. */
const MAX_ORIGINS = 20;

type Stored = Array<[origin: string, found: Partial<Record<EmptyListRead, ListAvailability>>]>;

function read(memento: vscode.Memento): Stored {
  const value = memento.get<unknown>(STATE_KEY);
  return Array.isArray(value) ? (value.filter((e) => Array.isArray(e) && typeof e[0] === 'string' && e[1] && typeof e[1] === 'object') as Stored) : [];
}

function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return baseUrl;
  }
}

export function knownListAvailability(memento: vscode.Memento, baseUrl: string, operation: EmptyListRead): ListAvailability | undefined {
  const origin = originOf(baseUrl);
  const found = read(memento).find(([o]) => o === origin)?.[1][operation];
  return found === 'offered' || found === 'missing' ? found : undefined;
}

/** Stores what a Check Connection run found for `baseUrl` (operations it could not tell are forgotten). */
export async function rememberListAvailability(memento: vscode.Memento, baseUrl: string, found: Partial<Record<EmptyListRead, ListAvailability>>): Promise<void> {
  const origin = originOf(baseUrl);
  const others = read(memento).filter(([o]) => o !== origin);
  await memento.update(STATE_KEY, [[origin, found], ...others].slice(0, MAX_ORIGINS));
}
