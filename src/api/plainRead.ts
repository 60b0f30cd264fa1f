// `client.read(id)`: one GET of a fixed path of the table of operations, typed by what it answers
// (OperationAnswers in types.ts). A read of this kind needs no method of its own in an area.
import type { CallOptions, HttpTransport } from './http';
import { OPERATIONS, type PlainReadId } from './operations';
import { requestOf } from './paths';
import { listOr404Empty } from './specSilent';
import type { OperationAnswers } from './types';

// Fails the type check, naming the operation, when a plain read of the table has no answer type.
type Unanswered = Exclude<PlainReadId, keyof OperationAnswers>;
const everyPlainReadAnswered: [Unanswered] extends [never] ? true : Unanswered = true;
void everyPlainReadAnswered;

export function plainRead(http: HttpTransport) {
  return <K extends PlainReadId>(id: K, opts?: CallOptions) => {
    const spec = requestOf(id);
    // Lists answered [] also for the service's own 404 (specSilent.ts, behaviour point emptyList).
    if ('emptyListMay404' in OPERATIONS[id]) return listOr404Empty(http, spec, opts) as Promise<OperationAnswers[K]>;
    return http.json<OperationAnswers[K]>(spec, opts);
  };
}
