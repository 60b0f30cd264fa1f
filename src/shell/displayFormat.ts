// Numbers, dates, sizes and name order in what the user reads follow VS Code's display language
// (vscode.env.language), never the operating system's locale: a Turkish VS Code on an English Windows
// shows "1.234.567 mükellef" and "26.11.2026 15:13", and an English one on a Turkish Windows does not.
// Every message that shows such a value formats it here.
import * as vscode from 'vscode';
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

/** The one file size format, in B, kB or MB (decimal units): "512 B", "1.5 kB" / "1,5 kB", "68.3 MB" / "68,3 MB". */
export function formatBytes(bytes: number): string {
  const locale = displayLocale();
  if (bytes < 1e3) return `${bytes.toLocaleString(locale)} B`;
  if (bytes < 999_950) return `${(bytes / 1e3).toLocaleString(locale, { maximumFractionDigits: 1 })} kB`;
  return `${(bytes / 1e6).toLocaleString(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 })} MB`;
}

/** Orders names as the display language does (Turkish: Ç after C, İ after I, Ş after S). */
export function compareNames(a: string, b: string): number {
  return new Intl.Collator(displayLocale(), { sensitivity: 'base' }).compare(a, b);
}
