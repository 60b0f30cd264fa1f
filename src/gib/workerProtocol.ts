// The messages between the extension host and the GİB rules worker (dist/gibWorker.js).

import type { GibValidation } from './engine';

export type GibWorkerSource = { readonly storageRoot: string } | { readonly rules?: string; readonly schemas?: string };

export type ToGibWorker =
  /** `stop`: an Int32Array's memory where the client writes the id of a request to stop (checkStop.ts). */
  | { kind: 'load'; source: GibWorkerSource; stop?: SharedArrayBuffer }
  | { kind: 'validate'; id: number; text: string };

export type FromGibWorker =
  | { kind: 'loaded'; release: string | undefined; hasRules: boolean; hasSchemas: boolean }
  | { kind: 'loadFailed'; message: string }
  | { kind: 'result'; id: number; validation: GibValidation }
  | { kind: 'failed'; id: number; message: string }
  /** The request was stopped: a newer text of the same document was asked for. */
  | { kind: 'stopped'; id: number };
