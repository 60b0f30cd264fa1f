// The messages between a preview panel's host (src/preview) and its page (src/webview-ui/preview).
// Imported by both bundles: types and pure functions only. Every message from the page passes through
// checkPreviewMessage() on the host; anything else is dropped. The page, for its part, takes messages
// only from VS Code (the window above it), never from the design's frame.
import type { ReadResult } from './model/types';

export type PanelKind = 'document' | 'studio';
export type ViewMode = 'design' | 'structured';

/** Texts the page shows, localized on the host (vscode.l10n), so one set of l10n files serves both. */
export type PreviewLabels = Record<string, string>;

export interface DesignSource {
  /** The design's text, or why there is none to render. */
  text?: string;
  problem?: 'none' | 'notBase64' | 'notXslt';
  /** Where it comes from: the document itself, or the design being edited (studio). */
  origin: 'embedded' | 'editor';
  name?: string;
}

/**
 * What a panel needs to come back after a window reload: the page keeps it in its state, which VS Code
 * hands to the panel's serializer. URIs as strings; a built-in sample by its file name (its folder moves
 * when the extension is updated).
 */
export type RestoreState = { panel: 'document'; document: string } | { panel: 'studio'; design: string; invoice?: string; sample?: string };

export interface UpdateMessage {
  type: 'update';
  /** Kept by the page for a window reload. */
  restore: RestoreState;
  /** Increases with every update; the page reports it back once that update is shown. */
  seq: number;
  /** The document shown (file name). */
  source: string;
  result: ReadResult;
  /** The document's text, when it changed since the last update (the page keeps the last one). */
  xml?: string;
  design: DesignSource;
  /** The mode the page shows unless the user chose another. */
  mode: ViewMode;
}

export interface InitMessage {
  type: 'init';
  panel: PanelKind;
  labels: PreviewLabels;
  /** For number formatting: the display language (tr, en…). */
  locale: string;
}

export type HostMessage = InitMessage | UpdateMessage;

export type PageMessage =
  | { type: 'ready'; xslt: boolean; engine: string }
  | { type: 'mode'; mode: ViewMode }
  | { type: 'rendered'; seq: number; mode: ViewMode; ms: number; outcome: RenderOutcome }
  | { type: 'upload' }
  | { type: 'pickInvoice' };

/** What a render came to, as the page reports it (tests and the benchmark read it through the host). */
export type RenderOutcome = 'design' | 'structured' | 'designFailed' | 'noXslt';

/** Longest URI kept (a path on any disk fits; a URI holding a document would not). */
const MAX_URI = 4096;

const isUri = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_URI && /^[a-z][a-z0-9+.-]*:/i.test(v);

/**
 * The restore state in a page's saved state (`{ …, restore }`), checked: the page wrote it, but a state
 * is only data to the host, so its shape, kind and URIs are checked before any is opened. Undefined when
 * there is none or it is not one of `panel`'s.
 */
export function restoreStateOf<K extends PanelKind>(pageState: unknown, panel: K): Extract<RestoreState, { panel: K }> | undefined {
  return checkedRestore(pageState, panel) as Extract<RestoreState, { panel: K }> | undefined;
}

function checkedRestore(pageState: unknown, panel: PanelKind): RestoreState | undefined {
  if (!isPlainObject(pageState) || !isPlainObject(pageState.restore)) return undefined;
  const r = pageState.restore;
  if (r.panel !== panel) return undefined;
  if (panel === 'document') return isUri(r.document) ? { panel, document: r.document } : undefined;
  if (!isUri(r.design)) return undefined;
  if (r.invoice !== undefined && !isUri(r.invoice)) return undefined;
  if (r.sample !== undefined && !(typeof r.sample === 'string' && /^[\w.-]{1,100}\.xml$/.test(r.sample))) return undefined;
  return { panel, design: r.design, ...(typeof r.invoice === 'string' ? { invoice: r.invoice } : {}), ...(typeof r.sample === 'string' ? { sample: r.sample } : {}) };
}

const OUTCOMES: readonly RenderOutcome[] = ['design', 'structured', 'designFailed', 'noXslt'];
const MODES: readonly ViewMode[] = ['design', 'structured'];

export type PreviewMessageCheck = { ok: true; message: PageMessage } | { ok: false; reason: string };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

const FIELDS: Record<PageMessage['type'], readonly string[]> = {
  ready: ['xslt', 'engine'],
  mode: ['mode'],
  rendered: ['seq', 'mode', 'ms', 'outcome'],
  upload: [],
  pickInvoice: [],
};

/** Checks a page message's shape, types and size; the message rebuilt from checked fields, or why it is dropped. */
export function checkPreviewMessage(raw: unknown): PreviewMessageCheck {
  const fail = (reason: string): PreviewMessageCheck => ({ ok: false, reason });
  if (!isPlainObject(raw)) return fail('not a plain object');
  const type = raw.type;
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(FIELDS, type)) return fail('unknown or missing "type"');
  const expected = FIELDS[type as PageMessage['type']];
  const keys = Object.keys(raw).filter((k) => k !== 'type');
  if (keys.length !== expected.length || !keys.every((k) => expected.includes(k))) return fail(`fields other than ${expected.join(', ') || 'none'} in "${type}"`);
  switch (type as PageMessage['type']) {
    case 'ready':
      if (typeof raw.xslt !== 'boolean') return fail('"xslt" is not true/false');
      if (typeof raw.engine !== 'string' || raw.engine.length > 200) return fail('"engine" is not text of up to 200 characters');
      return { ok: true, message: { type: 'ready', xslt: raw.xslt, engine: raw.engine } };
    case 'mode':
      if (!MODES.includes(raw.mode as ViewMode)) return fail('"mode" is not a view mode');
      return { ok: true, message: { type: 'mode', mode: raw.mode as ViewMode } };
    case 'rendered': {
      const { seq, ms } = raw;
      if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0 || seq > 2 ** 31) return fail('"seq" is not a whole number');
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > 3_600_000) return fail('"ms" is not a duration');
      if (!MODES.includes(raw.mode as ViewMode)) return fail('"mode" is not a view mode');
      if (!OUTCOMES.includes(raw.outcome as RenderOutcome)) return fail('"outcome" is not a render outcome');
      return { ok: true, message: { type: 'rendered', seq, ms, mode: raw.mode as ViewMode, outcome: raw.outcome as RenderOutcome } };
    }
    case 'upload':
      return { ok: true, message: { type: 'upload' } };
    case 'pickInvoice':
      return { ok: true, message: { type: 'pickInvoice' } };
  }
}
