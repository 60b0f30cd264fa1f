// The message protocol between a form's host controller (extension side) and its page (webview side).
// Imported by both bundles, so it holds only types and pure functions: no `vscode`, no DOM.
// Every message from the page passes through parseFromPage() on the host; anything else is ignored.

export type FormKind = 'company' | 'customer' | 'certificate' | 'settings';
export const FORM_KINDS: readonly FormKind[] = ['company', 'customer', 'certificate', 'settings'];

export type FieldKind = 'text' | 'textarea' | 'select' | 'checkbox' | 'password' | 'date';

/** Checks the page runs as the user types and the host runs again before sending anything. */
export type FieldRule = 'required' | 'email' | 'phone' | 'postalCode' | 'url' | 'iban' | 'taxId' | 'date' | 'notBeforeStart';

export interface FieldSpec {
  name: string;
  label: string;
  kind: FieldKind;
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
export interface FormLabels {
  save: string;
  reload: string;
  lookup: string;
  saving: string;
  saved: string;
  unsaved: string;
  invalid: string;
  serverErrors: string;
  loadFailed: string;
  messages: Record<ValidationMessage, string>;
}

export type ValidationMessage = 'required' | 'email' | 'phone' | 'postalCode' | 'url' | 'iban' | 'taxId' | 'date' | 'notBeforeStart';

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

export type PageMessage =
  | { type: 'ready' }
  | { type: 'draft'; dirty: boolean; values: FormValues }
  | { type: 'save'; requestId: number; values: FormValues }
  | { type: 'reload'; requestId: number }
  | { type: 'lookup'; requestId: number; taxNumber: string };

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

/** Limits for what the page may send; a form has at most a few dozen short fields. */
export const LIMITS = { fields: 64, fieldName: 64, valueLength: 4000, requestId: 2 ** 31 } as const;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isRequestId(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < LIMITS.requestId;
}

/** Form values: a flat object of short strings and booleans with known field names (when given). */
export function parseValues(v: unknown, allowed?: ReadonlySet<string>): FormValues | undefined {
  if (!isRecord(v)) return undefined;
  const entries = Object.entries(v);
  if (entries.length > LIMITS.fields) return undefined;
  const out: FormValues = {};
  for (const [name, value] of entries) {
    if (name.length > LIMITS.fieldName || name === '__proto__') return undefined;
    if (allowed && !allowed.has(name)) return undefined;
    if (typeof value === 'boolean') out[name] = value;
    else if (typeof value === 'string' && value.length <= LIMITS.valueLength) out[name] = value;
    else return undefined;
  }
  return out;
}

/** The page's message, checked for shape, types and size; undefined for anything malformed. */
export function parseFromPage(raw: unknown, allowedFields?: ReadonlySet<string>): PageMessage | undefined {
  if (!isRecord(raw) || typeof raw.type !== 'string') return undefined;
  switch (raw.type) {
    case 'ready':
      return { type: 'ready' };
    case 'draft': {
      const values = parseValues(raw.values, allowedFields);
      return typeof raw.dirty === 'boolean' && values ? { type: 'draft', dirty: raw.dirty, values } : undefined;
    }
    case 'save': {
      const values = parseValues(raw.values, allowedFields);
      return isRequestId(raw.requestId) && values ? { type: 'save', requestId: raw.requestId, values } : undefined;
    }
    case 'reload':
      return isRequestId(raw.requestId) ? { type: 'reload', requestId: raw.requestId } : undefined;
    case 'lookup':
      return isRequestId(raw.requestId) && typeof raw.taxNumber === 'string' && raw.taxNumber.length <= 32
        ? { type: 'lookup', requestId: raw.requestId, taxNumber: raw.taxNumber }
        : undefined;
    default:
      return undefined;
  }
}

/** The names of every field a spec declares (what save/draft messages may carry). */
export function fieldNames(spec: Pick<FormSpec, 'sections'>): Set<string> {
  return new Set(spec.sections.flatMap((s) => s.fields.map((f) => f.name)));
}

/** What the page keeps in VS Code's webview state (getState/setState) and the serializer receives. */
export interface PersistedPageState {
  kind: FormKind;
  recordKey: string;
  /** The unsaved values, without password fields. */
  draft?: FormValues;
}

export function parsePersistedState(v: unknown): PersistedPageState | undefined {
  if (!isRecord(v) || typeof v.kind !== 'string' || !FORM_KINDS.includes(v.kind as FormKind)) return undefined;
  if (typeof v.recordKey !== 'string' || v.recordKey.length > 64) return undefined;
  const draft = v.draft === undefined ? undefined : parseValues(v.draft);
  return { kind: v.kind as FormKind, recordKey: v.recordKey, ...(draft ? { draft } : {}) };
}
