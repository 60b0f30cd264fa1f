// Field checks shared by the page (as the user types) and the host (before anything is sent).
// Pure functions: no `vscode`, no DOM. Empty optional fields are valid; `required` says otherwise.
import { isEmailAddressList } from '../domain/email';
import { isIsoDay } from '../domain/isoDate';
import { checkTaxId } from '../domain/taxId';
import type { FieldRule, FieldSpec, FormValues } from './protocol';

// Digits with the usual separators, optionally a leading +; 7 to 15 digits (E.164 allows 15).
const PHONE = /^\+?([\s().-]*\d){7,15}[\s().-]*$/;
const POSTAL_CODE = /^\d{5}$/; // Turkish postal codes are five digits.
const URL_LIKE = /^(https?:\/\/)?([a-z0-9-]+\.)+[a-z]{2,}(:\d+)?(\/\S*)?$/i;

/** ISO 13616 IBAN: two letters, two check digits, up to 30 characters; mod-97 of the rearranged number is 1. */
export function isValidIban(text: string): boolean {
  const iban = text.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(iban)) return false;
  if (iban.startsWith('TR') && iban.length !== 26) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const code = ch >= 'A' && ch <= 'Z' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of code) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** A date as YYYY-MM-DD that the calendar has (not a date-time). */
const isValidDate = (text: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(text) && isIsoDay(text);

/** Whether a non-empty value passes each rule (`required`: whether it is non-empty). */
const RULES: Record<FieldRule, (value: string, values: FormValues) => boolean> = {
  required: (v) => v.trim().length > 0,
  email: (v) => isEmailAddressList(v),
  phone: (v) => PHONE.test(v.trim()),
  postalCode: (v) => POSTAL_CODE.test(v.trim()),
  url: (v) => URL_LIKE.test(v.trim()),
  // "Where it applies": a value that starts like an IBAN must be one; plain account numbers pass.
  iban: (v) => (/^[A-Za-z]{2}/.test(v.trim()) ? isValidIban(v) : /^[\d\s-]+$/.test(v.trim())),
  taxId: (v) => checkTaxId(v.trim()).valid,
  date: (v) => isValidDate(v.trim()),
  notBeforeStart: (v, { StartDate: start }) =>
    typeof start !== 'string' || !isValidDate(start) || !isValidDate(v) || v >= start,
};

/** The first rule a field's value breaks, or undefined when it is valid. */
export function validateField(field: FieldSpec, values: FormValues): FieldRule | undefined {
  if (field.readOnly || field.kind === 'checkbox') return undefined;
  const raw = values[field.name];
  const value = typeof raw === 'string' ? raw : '';
  const rules = field.rules ?? [];
  if (rules.includes('required') && !RULES.required(value, values)) return 'required';
  if (value.trim() === '') return undefined;
  return rules.find((rule) => rule !== 'required' && !RULES[rule](value, values));
}

/** Field names whose value differs from the baseline (strings compared trimmed). */
export function changedFields(fields: FieldSpec[], baseline: FormValues, values: FormValues): string[] {
  return fields
    .filter((f) => {
      if (f.readOnly) return false;
      const a = baseline[f.name];
      const b = values[f.name];
      if (typeof a === 'boolean' || typeof b === 'boolean') return Boolean(a) !== Boolean(b);
      return (a ?? '').trim() !== (b ?? '').trim();
    })
    .map((f) => f.name);
}

/**
 * Maps the server's messages onto the fields they name: a message whose Detail or Description
 * mentions a field's property name (or its label) goes next to that field, the rest above the form.
 */
export function mapServerMessages(
  fields: FieldSpec[],
  messages: Array<{ description: string; detail?: string }>,
): { fieldErrors: Record<string, string>; formErrors: string[] } {
  const fieldErrors: Record<string, string> = {};
  const formErrors: string[] = [];
  const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  /** Where `word` first appears in `text` as a whole word, or -1. */
  const position = (text: string, word: string) => text.search(new RegExp(`(?<![A-Za-z])${escape(word)}(?![A-Za-z])`, 'i'));
  for (const m of messages) {
    // The Detail names the property more reliably than the Description, so it is read first; the
    // field mentioned earliest wins ("EndDate is before StartDate" belongs to EndDate).
    const text = `${m.detail ?? ''} | ${m.description}`;
    let field: FieldSpec | undefined;
    let best = Number.POSITIVE_INFINITY;
    for (const f of fields) {
      if (f.readOnly) continue;
      for (const word of [f.name, f.label]) {
        const at = position(text, word);
        if (at >= 0 && (at < best || (at === best && field && f.name.length > field.name.length))) {
          best = at;
          field = f;
        }
      }
    }
    const shown = m.detail && m.detail !== m.description && !field ? `${m.description} (${m.detail})` : m.description;
    if (field) fieldErrors[field.name] = fieldErrors[field.name] ? `${fieldErrors[field.name]} ${shown}` : shown;
    else formErrors.push(shown);
  }
  return { fieldErrors, formErrors };
}

/**
 * The problems a form shows and that block saving, by field name: in changed fields and in required
 * ones, so a value the server already holds in another format does not block saving unrelated edits.
 */
export function formProblems(fields: FieldSpec[], baseline: FormValues, values: FormValues): Record<string, FieldRule> {
  const changed = changedFields(fields, baseline, values);
  const out: Record<string, FieldRule> = {};
  for (const f of fields) {
    const problem = changed.includes(f.name) || f.rules?.includes('required') ? validateField(f, values) : undefined;
    if (problem) out[f.name] = problem;
  }
  return out;
}
