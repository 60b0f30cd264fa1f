// One of a fixed list of string values, checked as such: `value in table` also accepts "constructor",
// "toString" or "__proto__" (every object has them), and a caller's value must not reach a file path
// or a request unchecked.

/** `value` when it is one of `allowed` (own values only), else undefined. */
export function enumValue<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
}
