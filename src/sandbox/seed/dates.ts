// Dates the way the service prints them: ISO-8601 without offset or fractions ("2026-01-01T00:00:00").

const DAY_MS = 86_400_000;

export function formatDate(d: Date): string {
  return d.toISOString().slice(0, 19);
}

/** Today at 00:00 UTC: seed dates are relative to it, so certificate expiry stays meaningful. */
export function todayUtc(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

export function addDays(base: Date, days: number): Date {
  return new Date(base.getTime() + days * DAY_MS);
}

export function nowString(): string {
  return formatDate(new Date());
}
