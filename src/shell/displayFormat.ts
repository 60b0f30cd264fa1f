// Numbers, dates, sizes and name order in what the user reads follow VS Code's display language
// (vscode.env.language), never the operating system's locale: a Turkish VS Code on an English Windows
// shows "1.234.567 mükellef" and "26.11.2026 15:13", and an English one on a Turkish Windows does not.
// Every message that shows such a value formats it here.
import * as vscode from 'vscode';
import { formatByteSize } from '../domain/byteSize';
import { localeDate } from '../domain/localeDate';

/** The display language as a BCP 47 tag Intl accepts ('en' when VS Code reports none). */
export function displayLocale(): string {
  const language = vscode.env.language;
  if (!language) return 'en';
  try {
    return Intl.getCanonicalLocales(language)[0] ?? 'en';
  } catch {
    return 'en';
  }
}

/** A whole count with the display language's grouping: 1,234,567 / 1.234.567. */
export function formatCount(value: number): string {
  return value.toLocaleString(displayLocale());
}

/** A date and time, medium date and short time: "Nov 26, 2026, 3:13 PM" / "26 Kas 2026 15:13". */
export function formatDateTime(value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return date.toLocaleString(displayLocale(), { dateStyle: 'medium', timeStyle: 'short' });
}

/** A date without the time: a server's date as the calendar date it names (see localeDate). */
export function formatDate(value: string | number | Date | null | undefined): string {
  return localeDate(value, displayLocale());
}

/** A size in the display language: "1.5 KB" / "1,5 KB" (src/domain/byteSize.ts). */
export function formatBytes(bytes: number): string {
  return formatByteSize(bytes, displayLocale());
}

/** Orders names as the display language does (Turkish: Ç after C, İ after I, Ş after S). */
export function compareNames(a: string, b: string): number {
  return new Intl.Collator(displayLocale(), { sensitivity: 'base' }).compare(a, b);
}
