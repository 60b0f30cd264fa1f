// The message protocol between a form's host controller (extension side) and its page (webview side).
// Imported by both bundles, so it holds only types and pure functions: no `vscode`, no DOM.
// Every message from the page passes through checkPageMessage() on the host; anything else is ignored.

export const FORM_KINDS = ['company', 'customer', 'certificate', 'settings'] as const;
export type FormKind = (typeof FORM_KINDS)[number];

/** Checks the page runs as the user types and the host runs again before sending anything. */
export type FieldRule = 'required' | 'email' | 'phone' | 'postalCode' | 'url' | 'iban' | 'taxId' | 'date' | 'notBeforeStart';

export interface FieldSpec {
  name: string;
  label: string;
  kind: 'text' | 'textarea' | 'select' | 'checkbox' | 'password' | 'date';
  readOnly?: boolean;
  rules?: FieldRule[];
  /** For `select`: the allowed values and their labels. */
  options?: Array<{ value: string; label: string }>;
  hint?: string;
  maxLength?: number;
}

export interface SectionSpec {
  title: string;
  fields: FieldSpec[];
  /** Read-only lines shown under the section (e.g. the company's aliases). */
  info?: string[];
}

/** Texts the page shows besides field labels; localized on the host (vscode.l10n) so one set of l10n files serves both. */
export type FormLabels = Record<'save' | 'reload' | 'lookup' | 'saving' | 'saved' | 'unsaved' | 'invalid', string> &
  Record<'serverErrors' | 'loadFailed', string> & { messages: Record<FieldRule, string> };

export interface FormSpec {
  kind: FormKind;
  /** Which record the form edits ('company', 'customer:12', 'customer:new', ...). */
  recordKey: string;
  title: string;
  description?: string;
  sections: SectionSpec[];
  /** Offers "Look up in registry" next to this field. */
  lookupField?: string;
  labels: FormLabels;
}

export type FormValues = Record<string, string | boolean>;

// ---- page → host ------------------------------------------------------------------------------

/** `kind` and `recordKey`, optional on every page message: which form and record the page believes it is. */
export type PageMessage = { kind?: FormKind; recordKey?: string } & (
    | { type: 'ready' }
    | { type: 'draft'; dirty: boolean; values: FormValues }
    | { type: 'save'; requestId: number; values: FormValues }
    | { type: 'reload'; requestId: number }
    | { type: 'lookup'; requestId: number; taxNumber: string }
  );

// ---- host → page ------------------------------------------------------------------------------

export interface InitMessage {
  type: 'init';
  spec: FormSpec;
  /** The record as the server has it (the baseline "changed" is measured against). */
  values: FormValues;
  /** Values to show over the baseline as unsaved changes: a restored draft, or a new record's prefill. */
  draft?: FormValues;
}

export type ResponseMessage =
  | { type: 'response'; requestId: number; ok: true; values?: FormValues; spec?: FormSpec; notice?: string }
  | { type: 'response'; requestId: number; ok: false; fieldErrors: Record<string, string>; formErrors: string[] };

export type HostMessage = InitMessage | ResponseMessage;

// ---- validation of incoming messages ----------------------------------------------------------
// A message that fails any check is dropped whole (never trimmed to its good parts), and the reason
// is short and names no value: the host logs it, and values may hold passwords.

/**
 * Limits for what the page may send; a form has at most a few dozen short fields. `messageChars`
 * bounds a whole message (the largest valid save is about fields × valueLength).
 */
export const LIMITS = { fields: 64, fieldName: 64, valueLength: 4000, requestId: 2 ** 31, messageChars: 300_000 } as const;

/** The fields each message type carries besides `type` and the optional target fields. */
const MESSAGE_FIELDS: Record<PageMessage['type'], readonly string[]> = {
  ready: [],
  draft: ['dirty', 'values'],
  save: ['requestId', 'values'],
  reload: ['requestId'],
  lookup: ['requestId', 'taxNumber'],
};
const TARGET_FIELDS = ['kind', 'recordKey'];
/** Keys that could reach an object's prototype if some code merged the message into an object. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (!isRecord(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** A name the page sent, fit for a log line: identifiers as they are, anything else left out. */
export function safeName(name: unknown): string {
  return typeof name === 'string' && /^[A-Za-z_$][\w$.-]{0,31}$/.test(name) ? name : '(unprintable)';
}

function nameList(names: string[]): string {
  const shown = names.slice(0, 3).map(safeName).join(', ');
  return names.length > 3 ? `${shown} and ${names.length - 3} more` : shown;
}

/**
 * Roughly how many characters the value would take as JSON, counted without serializing it and
 * given up on as soon as it passes `limit` (then Infinity). Iterative, so deep nesting cannot
 * overflow the stack, and bounded in nodes, so a cycle cannot loop.
 */
export function approximateSize(value: unknown, limit: number): number {
  let total = 0;
  let nodes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (++nodes > limit) return Number.POSITIVE_INFINITY;
    if (typeof v === 'string') total += v.length + 2;
    else if (typeof v === 'object' && v !== null) {
      const keys = Array.isArray(v) ? [] : Object.keys(v);
      total += 2 + keys.reduce((n, k) => n + k.length + 4, 0);
      if (Array.isArray(v)) {
        total += v.length;
        if (total > limit) return Number.POSITIVE_INFINITY;
        for (const item of v) stack.push(item);
      } else for (const k of keys) stack.push((v as Record<string, unknown>)[k]);
    } else total += 6;
    if (total > limit) return Number.POSITIVE_INFINITY;
  }
  return total;
}

/** Why form values are unacceptable (a flat object of short strings and booleans with known names), or undefined. */
export function valuesProblem(v: unknown, allowed?: ReadonlySet<string>): string | undefined {
  if (!isPlainObject(v)) return '"values" is not a plain object';
  const names = Object.keys(v);
  if (names.length > LIMITS.fields) return `more than ${LIMITS.fields} values`;
  const dangerous = names.filter((n) => PROTOTYPE_KEYS.has(n));
  if (dangerous.length > 0) return `a prototype key in "values" (${nameList(dangerous)})`;
  const tooLongNames = names.filter((n) => n.length > LIMITS.fieldName);
  if (tooLongNames.length > 0) return `a field name longer than ${LIMITS.fieldName} characters`;
  const unknown = allowed ? names.filter((n) => !allowed.has(n)) : [];
  if (unknown.length > 0) return `unknown field name(s) in "values": ${nameList(unknown)}`;
  for (const name of names) {
    const value = v[name];
    if (typeof value === 'string') {
      if (value.length > LIMITS.valueLength) return `the value of ${safeName(name)} is longer than ${LIMITS.valueLength} characters`;
    } else if (typeof value !== 'boolean') return `the value of ${safeName(name)} is neither text nor true/false`;
  }
  return undefined;
}

/** A field check: `reason` unless `ok` holds for the value. */
export const expect = (ok: (v: unknown) => boolean, reason: string) => (v: unknown) => (ok(v) ? undefined : reason);
export const isText = (max: number) => (v: unknown) => typeof v === 'string' && v.length <= max;

/** Why a field's value is unacceptable, by field name (`values`: valuesProblem). */
const FIELD_PROBLEMS: Record<string, (value: unknown) => string | undefined> = {
  requestId: expect(
    (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < LIMITS.requestId,
    '"requestId" is not a whole number from 0 to 2^31',
  ),
  dirty: expect((v) => typeof v === 'boolean', '"dirty" is not true/false'),
  taxNumber: expect(isText(32), '"taxNumber" is not text of up to 32 characters'),
  kind: expect((v) => (FORM_KINDS as readonly unknown[]).includes(v), '"kind" is not a form kind'),
  recordKey: expect(isText(64), '"recordKey" is not text of up to 64 characters'),
};

type Checked<M> = { ok: true; message: M } | { ok: false; reason: string };

/**
 * Checks a page's message for shape, types and size: `fields` names what each type carries (besides
 * `type` and the `optional` fields any message may carry), `fieldProblem` checks each value. The
 * message rebuilt from its checked fields, or why it is dropped. The preview's messages pass here too.
 */
export function checkMessage<M extends { type: string }>(
  raw: unknown,
  fields: Record<M['type'], readonly string[]>,
  fieldProblem: (name: string, value: unknown) => string | undefined,
  optional: readonly string[] = [],
): Checked<M> {
  const fail = (reason: string) => ({ ok: false as const, reason });
  if (raw === null) return fail('null, not an object');
  if (Array.isArray(raw)) return fail('an array, not an object');
  if (typeof raw !== 'object') return fail(`a ${typeof raw}, not an object`);
  if (!isPlainObject(raw)) return fail('not a plain object (it inherits properties)');
  if (approximateSize(raw, LIMITS.messageChars) > LIMITS.messageChars) return fail(`larger than ${LIMITS.messageChars} characters`);
  const keys = Object.keys(raw);
  const dangerous = keys.filter((k) => PROTOTYPE_KEYS.has(k));
  if (dangerous.length > 0) return fail(`a prototype key (${nameList(dangerous)})`);
  if (!('type' in raw)) return fail('no "type" field');
  if (typeof raw.type !== 'string') return fail('"type" is not text');
  const type = raw.type;
  if (!Object.prototype.hasOwnProperty.call(fields, type)) return fail(`unknown type ${safeName(type)}`);
  const expected = fields[type as M['type']];
  const unexpected = keys.filter((k) => k !== 'type' && !expected.includes(k) && !optional.includes(k));
  if (unexpected.length > 0) return fail(`unexpected field(s) ${nameList(unexpected)} in "${type}"`);
  const missing = expected.filter((k) => !keys.includes(k));
  if (missing.length > 0) return fail(`missing field(s) ${nameList(missing)} in "${type}"`);
  const message: Record<string, unknown> = { type };
  for (const k of keys.filter((key) => key !== 'type')) {
    const problem = fieldProblem(k, raw[k]);
    if (problem) return fail(`${problem} in "${type}"`);
    // Rebuilt from checked fields only: nothing the page sent is passed on by reference.
    message[k] = isRecord(raw[k]) ? { ...raw[k] } : raw[k];
  }
  return { ok: true, message: message as M };
}

/** Checks a form page's message; `allowed`: the field names its values may carry. */
export function checkPageMessage(raw: unknown, allowed?: ReadonlySet<string>): Checked<PageMessage> {
  const problem = (k: string, v: unknown) => (k === 'values' ? valuesProblem(v, allowed) : FIELD_PROBLEMS[k](v));
  return checkMessage<PageMessage>(raw, MESSAGE_FIELDS, problem, TARGET_FIELDS);
}

/** A short description of a message for a log line: its shape and size, never its values. */
export function summarizeMessage(raw: unknown): string {
  if (raw === null) return 'null';
  if (Array.isArray(raw)) return `array of ${raw.length}`;
  if (typeof raw === 'string') return `text of ${raw.length} characters`;
  if (typeof raw !== 'object') return typeof raw;
  const keys = Object.keys(raw);
  const size = approximateSize(raw, 10 * LIMITS.messageChars);
  const sizeText = Number.isFinite(size) ? `about ${size} characters` : `over ${10 * LIMITS.messageChars} characters`;
  return `object with ${keys.length} field(s) (${nameList(keys)}), ${sizeText}`;
}

/** The names of every field a spec declares (what save/draft messages may carry). */
export function fieldNames(spec: Pick<FormSpec, 'sections'>): Set<string> {
  return new Set(spec.sections.flatMap((s) => s.fields.map((f) => f.name)));
}

/** What the page keeps in VS Code's webview state (getState/setState) and the serializer receives. */
export type PersistedPageState = Pick<FormSpec, 'kind' | 'recordKey'> & {
  /** The unsaved values, without password fields. */
  draft?: FormValues;
};

export function parsePersistedState(v: unknown): PersistedPageState | undefined {
  if (!isRecord(v) || FIELD_PROBLEMS.kind(v.kind) || FIELD_PROBLEMS.recordKey(v.recordKey)) return undefined;
  const valid = v.draft !== undefined && valuesProblem(v.draft) === undefined;
  const draft = valid ? { ...(v.draft as FormValues) } : undefined;
  return { kind: v.kind as FormKind, recordKey: v.recordKey as string, ...(draft ? { draft } : {}) };
}
