// The messages between a preview panel's host (src/preview) and its page (src/webview-ui/preview).
// Imported by both bundles: types and pure functions only. Every message from the page passes through
// checkPreviewMessage() on the host; anything else is dropped. The page, for its part, takes messages
// only from VS Code (the window above it), never from the design's frame.
import { checkMessage, expect, isPlainObject, isText } from '../webviews/protocol';
import type { GibFinding } from '../gib/engine';
import type { ReadResult } from './model/types';

export type PreviewMessageCheck = { ok: true; message: PageMessage } | { ok: false; reason: string };

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
  /** The design's scripts may run: only in the studio, after its user turned them on for the session. */
  scripts: boolean;
}

export interface InitMessage {
  type: 'init';
  panel: PanelKind;
  labels: PreviewLabels;
  /** For number formatting: the display language (tr, en…). */
  locale: string;
}

/** One of GİB's findings as the structured view lists it (the host keeps where it is; the page sends back its index). */
export type GibFindingView = Pick<GibFinding, 'severity' | 'message' | 'line'> & {
  /** The element's path, or its name for an XSD finding ('' when unknown). */
  where: string;
};

/** GİB's verdict at the top of the document preview's structured view (src/preview/gibVerdict.ts). */
export type GibVerdictView =
  | { state: 'none' }
  | { state: 'checking' }
  | { state: 'noRules' }
  | { state: 'failed'; message: string }
  /** `id` names this verdict: a reveal request carries it with a finding's index, so a click on an older list does nothing. */
  | { state: 'checked'; id: number; summary: string; errors: number; findings: GibFindingView[]; total: number; hiddenDrafts: number };

export interface GibMessage {
  type: 'gib';
  verdict: GibVerdictView;
}

export type HostMessage = InitMessage | UpdateMessage | GibMessage;

export type PageMessage =
  | { type: 'ready'; xslt: boolean; engine: string }
  | { type: 'mode'; mode: ViewMode }
  | { type: 'rendered'; seq: number; mode: ViewMode; ms: number; outcome: RenderOutcome }
  | { type: 'upload' }
  | { type: 'pickInvoice' }
  /** The studio's user turned the design's scripts on or off (the host ignores it from the document preview). */
  | { type: 'scripts'; allow: boolean }
  /** Go to finding `index` of GİB verdict `verdict` in the document (the host looks up where it is). */
  | { type: 'gibReveal'; verdict: number; index: number }
  /** One of the offers shown when GİB's rules are not on this computer. */
  | { type: 'gibRules'; action: GibRulesAction };

export type GibRulesAction = 'download' | 'useFile';
const GIB_RULES_ACTIONS: readonly GibRulesAction[] = ['download', 'useFile'];

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

const FIELDS: Record<PageMessage['type'], readonly string[]> = {
  ready: ['xslt', 'engine'],
  mode: ['mode'],
  rendered: ['seq', 'mode', 'ms', 'outcome'],
  upload: [],
  pickInvoice: [],
  scripts: ['allow'],
  gibReveal: ['verdict', 'index'],
  gibRules: ['action'],
};

const isWholeNumber = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 2 ** 31;
const isTrueFalse = (v: unknown) => typeof v === 'boolean';

/** Why a field's value is unacceptable, by field name (the forms' checks are built the same way). */
const FIELD_PROBLEMS: Record<string, (value: unknown) => string | undefined> = {
  xslt: expect(isTrueFalse, '"xslt" is not true/false'),
  allow: expect(isTrueFalse, '"allow" is not true/false'),
  engine: expect(isText(200), '"engine" is not text of up to 200 characters'),
  mode: expect((v) => MODES.includes(v as ViewMode), '"mode" is not a view mode'),
  verdict: expect(isWholeNumber, '"verdict" is not a whole number'),
  index: expect(isWholeNumber, '"index" is not a whole number'),
  action: expect((v) => GIB_RULES_ACTIONS.includes(v as GibRulesAction), '"action" is not an offer of the page'),
  seq: expect(isWholeNumber, '"seq" is not a whole number'),
  ms: expect((v) => typeof v === 'number' && v >= 0 && v <= 3_600_000, '"ms" is not a duration'),
  outcome: expect((v) => OUTCOMES.includes(v as RenderOutcome), '"outcome" is not a render outcome'),
};

const fieldProblem = (name: string, value: unknown): string | undefined =>
  Object.hasOwn(FIELD_PROBLEMS, name) ? FIELD_PROBLEMS[name](value) : `unexpected field ${name}`;

/** Checks a page message (as the forms' are checked); the message rebuilt from checked fields, or why it is dropped. */
export function checkPreviewMessage(raw: unknown): PreviewMessageCheck {
  return checkMessage<PageMessage>(raw, FIELDS, fieldProblem);
}
