// Deterministic pseudo-random numbers. Everything the sandbox generates comes from (seed, index)
// so the same seed always yields the same data and registry entries need no stored state.

/** A 32-bit integer hash of (seed, index, salt): the basis of per-entry generation. */
export function hash3(seed: number, index: number, salt = 0): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 0x632be5ab, 0xc2b2ae35) ^ Math.imul(salt + 1, 0x27d4eb2f);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A sequential generator (mulberry32) for seed data that is generated once. */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = hash3(seed, 0x5eed) | 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  digits(n: number): string {
    return Array.from({ length: n }, () => this.int(0, 9)).join('');
  }
}

/** Picks from a list with a 32-bit hash value (for per-entry generation without a Prng). */
export function pickBy<T>(list: readonly T[], h: number): T {
  return list[h % list.length];
}
