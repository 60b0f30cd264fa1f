// Drops answers that arrive for a profile the window has since switched away from. Plain logic.

/**
 * The call belonged to a profile that is no longer active. Shaped like the API client's
 * `cancelled` error, so the command wrapper, trees and forms treat it as silent (isCancellation).
 */
export class ProfileSwitchedError extends Error {
  readonly kind = 'cancelled' as const;
  readonly operation: string;
  readonly messages = [{ description: 'the active profile changed; the answer for the previous one was dropped' }];
  constructor(operation: string) {
    super(`${operation}: the active profile changed; the answer for the previous one was dropped`);
    this.name = 'ProfileSwitchedError';
    this.operation = operation;
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return !!value && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Wraps a client (an object of API areas, each an object of methods): every call's answer, or
 * failure, is replaced by ProfileSwitchedError when `isCurrent()` is false by the time it settles.
 */
export function guardStaleAnswers<T extends object>(client: T, isCurrent: () => boolean): T {
  const areas = new Map<PropertyKey, unknown>();
  return new Proxy(client, {
    get(target, prop, receiver) {
      const area = Reflect.get(target, prop, receiver) as unknown;
      if (!area || typeof area !== 'object') return area;
      if (!areas.has(prop)) areas.set(prop, guardArea(area, String(prop), isCurrent));
      return areas.get(prop);
    },
  });
}

function guardArea(area: object, areaName: string, isCurrent: () => boolean): object {
  return new Proxy(area, {
    get(target, prop, receiver) {
      const member = Reflect.get(target, prop, receiver) as unknown;
      if (typeof member !== 'function') return member;
      const operation = `${areaName}.${String(prop)}`;
      return (...args: unknown[]) => {
        if (!isCurrent()) return Promise.reject(new ProfileSwitchedError(operation));
        const result = (member as (...a: unknown[]) => unknown).apply(target, args);
        if (!isThenable(result)) return result;
        return Promise.resolve(result).then(
          (value) => {
            if (!isCurrent()) throw new ProfileSwitchedError(operation);
            return value;
          },
          (error: unknown) => {
            throw isCurrent() ? error : new ProfileSwitchedError(operation);
          },
        );
      };
    },
  });
}
