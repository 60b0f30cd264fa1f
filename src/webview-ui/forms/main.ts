// The page of every form panel. It renders the fields the host describes, checks them as the user
// types, keeps the draft in the webview state (it survives hiding the tab and reloading the window)
// and asks the host to save, reload or look up; it never talks to the network itself.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-label/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { FieldSpec, FormSpec, FormValues, HostMessage, PageMessage, PersistedPageState } from '../../webviews/protocol';
import { checkTaxId } from '../../domain/taxId';
import { changedFields, formProblems } from '../../webviews/validation';
import styles from './styles.css';
import { startPage } from '../startPage';

const vscode = startPage<PageMessage, PersistedPageState>(styles);
const app = document.getElementById('app') as HTMLElement;

type Control = HTMLElement & { value?: string; checked?: boolean; invalid?: boolean; disabled?: boolean; readonly?: boolean };

let spec: FormSpec | undefined;
let baseline: FormValues = {};
let values: FormValues = {};
let serverFieldErrors: Record<string, string> = {};
let formErrors: string[] = [];
let notice = '';
let loadFailed = false;
let busy = false;
const touched = new Set<string>();
/** The field edited last: where the focus goes back to after a save (the Save button is disabled then). */
let lastEdited: string | undefined;
const controls = new Map<string, Control>();
const errorSlots = new Map<string, HTMLElement>();
let nextRequestId = 1;
const pending = new Map<number, (m: Extract<HostMessage, { type: 'response' }>) => void>();

function fields(): FieldSpec[] {
  return spec?.sections.flatMap((s) => s.fields) ?? [];
}

function isDirty(): boolean {
  return changedFields(fields(), baseline, values).length > 0;
}

/** Values without passwords: what may be kept in the webview state and sent as a draft. */
function shareableValues(): FormValues {
  const secret = new Set(fields().filter((f) => f.kind === 'password').map((f) => f.name));
  return Object.fromEntries(Object.entries(values).filter(([k]) => !secret.has(k)));
}

function persist(): void {
  if (!spec) return;
  const dirty = isDirty();
  const draft = shareableValues();
  vscode.setState({ kind: spec.kind, recordKey: spec.recordKey, ...(dirty ? { draft } : {}) });
  vscode.postMessage({ type: 'draft', dirty, values: draft });
}

type RequestMessage = Extract<PageMessage, { requestId: number }>;
/** A request without its id (distributes over the union, unlike a plain Omit). */
type Unsent<M> = M extends unknown ? Omit<M, 'requestId'> : never;

/** Sends a request; the form is busy (its buttons disabled) until the answer. */
function request(message: Unsent<RequestMessage>): Promise<Extract<HostMessage, { type: 'response' }>> {
  const requestId = nextRequestId++;
  busy = true;
  update();
  return new Promise((resolve) => {
    pending.set(requestId, (answer) => {
      busy = false;
      resolve(answer);
    });
    vscode.postMessage({ ...message, requestId } as PageMessage);
  });
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function button(id: string, label: string, onClick: () => Promise<void>, secondary = false): HTMLElement {
  const b = el('vscode-button', { id, ...(secondary ? { secondary: '' } : {}) }, label);
  b.addEventListener('click', () => void onClick());
  return b;
}

/** The element of each field kind; text, password and date fields are text fields. */
const TAGS = { checkbox: 'vscode-checkbox', select: 'vscode-single-select', textarea: 'vscode-textarea' } as const;

function isRequired(field: FieldSpec): boolean {
  return !field.readOnly && (field.rules?.includes('required') ?? false);
}

function controlFor(field: FieldSpec): Control {
  const id = `field-${field.name}`;
  if (field.readOnly && (field.kind === 'text' || field.kind === 'textarea')) {
    // Shown as text, as the settings editor shows values that cannot change; still focusable for screen readers.
    const attributes = { id, class: 'readonly-value', role: 'textbox', tabindex: '0', 'aria-label': field.label, 'aria-readonly': 'true' };
    return el('div', attributes) as Control;
  }
  const tag = field.kind in TAGS ? TAGS[field.kind as keyof typeof TAGS] : 'vscode-textfield';
  const attributes: Record<string, string> = {
    ...(field.kind === 'textarea' ? { rows: '3', resize: 'vertical' } : {}),
    ...(field.kind === 'password' ? { type: 'password', autocomplete: 'off' } : {}),
    ...(field.kind === 'date' ? { placeholder: 'YYYY-MM-DD' } : {}),
    ...(field.maxLength && tag === 'vscode-textfield' ? { maxlength: String(field.maxLength) } : {}),
    id,
    name: field.name,
    'aria-label': field.label,
    'aria-describedby': [field.hint ? `${id}-hint` : '', isRequired(field) ? `${id}-required` : '', `${id}-error`].filter(Boolean).join(' '),
    ...(field.readOnly ? { readonly: '', 'aria-readonly': 'true' } : {}),
    ...(field.readOnly && (field.kind === 'select' || field.kind === 'checkbox') ? { disabled: '' } : {}),
    // No aria-required on the element itself: it has no role, so nothing would read it (the input inside
    // is in its shadow root). A required field shows "*" in its label (vscode-label) and is described as
    // required by a hidden line (`<id>-required`). The elements' own `required` is not used either: with
    // it, the form re-rendered after a save lost its values.
  };
  const control = el(tag, attributes, field.kind === 'checkbox' ? field.label : undefined) as Control;
  if (field.kind === 'select') control.append(...(field.options ?? []).map((o) => el('vscode-option', { value: o.value }, o.label)));
  const changed = () => onInput(field.name, field.kind === 'checkbox' ? control.checked === true : (control.value ?? ''));
  control.addEventListener(field.kind === 'checkbox' || field.kind === 'select' ? 'change' : 'input', changed);
  return control;
}

function render(): void {
  if (!spec) return;
  controls.clear();
  errorSlots.clear();
  app.replaceChildren();
  app.removeAttribute('aria-busy');
  const header = el('header');
  header.append(el('h1', { tabindex: '-1' }, spec.title));
  if (spec.description) header.append(el('p', { class: 'description' }, spec.description));
  app.append(header, el('div', { id: 'form-errors', class: 'banner', role: 'alert', 'aria-live': 'assertive' }));

  const form = el('form', { novalidate: '', 'aria-label': spec.title });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void save();
  });
  const lookupField = spec.lookupField;
  const labels = spec.labels;
  spec.sections.forEach((section, index) => {
    // Ids by position: a title has spaces, which an id list (aria-labelledby) cannot hold.
    const group = el('section', { 'aria-labelledby': `section-${index}` });
    group.append(el('h2', { id: `section-${index}` }, section.title));
    for (const field of section.fields) {
      const row = el('div', { class: `setting-item${field.readOnly ? ' read-only' : ''}`, 'data-field': field.name });
      if (field.kind !== 'checkbox') {
        const required: Record<string, string> = field.rules?.includes('required') ? { required: '' } : {};
        row.append(el('vscode-label', { for: `field-${field.name}`, ...required }, field.label));
      }
      if (field.hint) row.append(el('div', { class: 'hint', id: `field-${field.name}-hint` }, field.hint));
      if (isRequired(field)) row.append(el('span', { class: 'visually-hidden', id: `field-${field.name}-required` }, labels.messages.required));
      const control = controlFor(field);
      controls.set(field.name, control);
      const line = el('div', { class: 'control-line' });
      line.append(control);
      if (lookupField === field.name) line.append(button('lookup', labels.lookup, lookupRegistry, true));
      const error = el('div', { class: 'field-error', id: `field-${field.name}-error`, role: 'status', 'aria-live': 'polite' });
      errorSlots.set(field.name, error);
      row.append(line, error);
      group.append(row);
    }
    for (const line of section.info ?? []) group.append(el('div', { class: 'info-line' }, line));
    form.append(group);
  });
  app.append(form);

  const footer = el('div', { class: 'actions' });
  footer.append(button('save', spec.labels.save, save), button('reload', spec.labels.reload, reload, true), el('span', { id: 'status', role: 'status', 'aria-live': 'polite' }));
  app.append(footer);
  writeValues();
  update();
}

function writeValues(): void {
  for (const field of fields()) {
    const control = controls.get(field.name);
    if (!control) continue;
    const v = values[field.name];
    if (field.kind === 'checkbox') control.checked = v === true;
    else if (control.classList.contains('readonly-value')) control.textContent = typeof v === 'string' ? v : '';
    else control.value = typeof v === 'string' ? v : '';
  }
}

/** Refreshes messages, the Save button and the status line from the current state. */
function update(): void {
  if (!spec) return;
  const problems = formProblems(fields(), baseline, values);
  for (const field of fields()) {
    const slot = errorSlots.get(field.name);
    const control = controls.get(field.name);
    const local = touched.has(field.name) ? problems[field.name] : undefined;
    const message = local ? spec.labels.messages[local] : (serverFieldErrors[field.name] ?? '');
    if (slot) slot.textContent = message;
    if (control) {
      control.invalid = message !== '';
      control.setAttribute('aria-invalid', message !== '' ? 'true' : 'false');
    }
  }
  const dirty = isDirty();
  const invalid = Object.keys(problems).length > 0;
  const byId = (id: string) => document.getElementById(id) as Control | null;
  const [save, reload, lookup] = [byId('save'), byId('reload'), byId('lookup')];
  if (save) save.disabled = busy || !dirty || invalid;
  if (reload) reload.disabled = busy;
  const taxNumber = spec.lookupField && values[spec.lookupField];
  if (lookup) lookup.disabled = busy || typeof taxNumber !== 'string' || !checkTaxId(taxNumber).valid;
  const banner = document.getElementById('form-errors');
  if (banner) {
    const list = el('ul');
    list.append(...formErrors.map((e) => el('li', {}, e)));
    banner.replaceChildren(...(formErrors.length > 0 ? [el('p', {}, loadFailed ? spec.labels.loadFailed : spec.labels.serverErrors), list] : []));
    banner.hidden = formErrors.length === 0;
  }
  const status = document.getElementById('status');
  if (status) status.textContent = busy ? spec.labels.saving : invalid && dirty ? spec.labels.invalid : dirty ? spec.labels.unsaved : notice;
}

function onInput(name: string, value: string | boolean): void {
  values = { ...values, [name]: value };
  lastEdited = name;
  touched.add(name);
  delete serverFieldErrors[name];
  notice = '';
  persist();
  update();
}

async function save(): Promise<void> {
  if (!spec || busy) return;
  if (Object.keys(formProblems(fields(), baseline, values)).length > 0 || !isDirty()) return;
  formErrors = [];
  const answer = await request({ type: 'save', values });
  if (answer.ok) {
    applyLoaded(answer.spec, answer.values);
    notice = answer.notice ?? spec.labels.saved;
    update();
    focusAfterSave();
    return;
  }
  serverFieldErrors = answer.fieldErrors;
  formErrors = answer.formErrors;
  const firstField = Object.keys(answer.fieldErrors)[0];
  if (firstField) controls.get(firstField)?.focus();
  update();
}

/**
 * After a save the Save button is disabled, and a disabled button loses the focus to the page: it goes
 * back to the field edited last (the settings editor keeps it there too), else to the first field. The
 * status line ("Saved.") is announced by its live region.
 */
function focusAfterSave(): void {
  const editable = (c: Control | undefined) => c && !c.disabled && !c.hasAttribute('readonly') && !c.classList.contains('readonly-value');
  const target = [lastEdited && controls.get(lastEdited), ...controls.values()].find((c) => editable(c || undefined));
  (target || document.querySelector<HTMLElement>('h1'))?.focus();
}

async function reload(): Promise<void> {
  if (!spec || busy) return;
  const answer = await request({ type: 'reload' });
  if (answer.ok) applyLoaded(answer.spec, answer.values);
  else formErrors = answer.formErrors;
  update();
}

async function lookupRegistry(): Promise<void> {
  if (!spec?.lookupField || busy) return;
  const taxNumber = values[spec.lookupField];
  if (typeof taxNumber !== 'string') return;
  const answer = await request({ type: 'lookup', taxNumber });
  if (answer.ok && answer.values) {
    values = { ...values, ...answer.values };
    for (const k of Object.keys(answer.values)) touched.add(k);
    formErrors = [];
    writeValues();
    persist();
  } else if (!answer.ok) {
    formErrors = [...answer.formErrors, ...Object.values(answer.fieldErrors)];
  }
  update();
}

/** A fresh record from the host: it becomes the baseline and the draft is dropped. */
function applyLoaded(nextSpec: FormSpec | undefined, nextValues: FormValues | undefined): void {
  const rebuild = nextSpec !== undefined && JSON.stringify(nextSpec) !== JSON.stringify(spec);
  if (nextSpec) spec = nextSpec;
  if (nextValues) baseline = nextValues;
  values = { ...baseline };
  loadFailed = false;
  serverFieldErrors = {};
  formErrors = [];
  touched.clear();
  if (rebuild) render();
  else writeValues();
  persist();
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const message = event.data;
  if (!message || typeof message !== 'object') return;
  if (message.type === 'init') {
    spec = message.spec;
    baseline = message.values;
    const saved = vscode.getState() as PersistedPageState | undefined;
    // A draft kept in the webview state wins (the tab was hidden or the window reloaded); else one the host restores.
    const draft = saved && saved.recordKey === spec.recordKey && saved.draft ? saved.draft : message.draft;
    values = { ...baseline, ...(draft ?? {}) };
    if (draft) for (const k of Object.keys(draft)) touched.add(k);
    render();
    persist();
    return;
  }
  if (message.type === 'response') {
    const resolve = pending.get(message.requestId);
    if (resolve) {
      pending.delete(message.requestId);
      resolve(message);
    } else if (!message.ok) {
      // Not an answer to a request: the record could not be loaded.
      loadFailed = true;
      formErrors = message.formErrors;
      update();
    }
  }
});

document.addEventListener('keydown', (e) => {
  if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
    e.preventDefault();
    void save();
  }
  // Enter in a one-line field saves through the form's own submission (the fields are form-associated),
  // as Enter accepts VS Code's own input boxes. Escape closes nothing: an editor tab does not close on
  // Escape in VS Code either (Ctrl+W closes it).
});

vscode.postMessage({ type: 'ready' });
