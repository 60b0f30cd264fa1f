// The page of a preview panel. It shows a UBL-TR document either through a design (XSLT, run by the
// webview's own XSLTProcessor) inside a sandboxed frame, or as the structured view the host computed.
// The design's output never enters this page: it goes into <iframe sandbox srcdoc>, an opaque origin
// without permissions (the policies are src/preview/page.ts's). Only in the studio, when its user turns
// them on, does the frame get allow-scripts and the design's inline scripts the design nonce.
import { externalReferences, likelyCauses, type DesignCause } from '../../preview/designDiagnosis';
import { framePolicy, frameSandbox } from '../../preview/page';
import { escapeHtml } from '../../webviews/page';
import type { GibVerdictView, HostMessage, InitMessage, PageMessage, RenderOutcome, RestoreState, UpdateMessage, ViewMode } from '../../preview/protocol';
import { localeDate } from '../../domain/localeDate';
import type { Amount, LineView, NumberFinding, PartyIdentification, PartyView, StructuredModel, TaxLine, TaxTotalView, TotalsCheck } from '../../preview/model/types';
import styles from './styles.css';
import { startPage } from '../startPage';

interface PageState {
  userMode?: ViewMode;
  /** The missing-XSLT message was closed in this panel (it is said once, not on every update). */
  noXsltDismissed?: boolean;
  /** What the panel shows, for its serializer after a window reload (the host sends it with each update). */
  restore?: RestoreState;
}

const vscode = startPage<PageMessage, PageState>(styles);

const LINES_SHOWN_AT_FIRST = 500;
const hasXslt = typeof XSLTProcessor === 'function';
const designNonce = document.body.dataset.designNonce ?? '';

let init: InitMessage | undefined;
let last: UpdateMessage | undefined;
let xml = '';
/** The document parsed once per text: a design edit transforms the same document again. */
let parsedXml: { text: string; doc: Document } | undefined;
let state: PageState = (vscode.getState() as PageState | undefined) ?? {};
let linesShown = LINES_SHOWN_AT_FIRST;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const frame = $<HTMLIFrameElement>('design');
const structured = $<HTMLElement>('structured');
const banner = $<HTMLElement>('banner');
const problem = $<HTMLElement>('problem');

function L(key: string, ...args: Array<string | number>): string {
  const text = init?.labels[key] ?? key;
  return text.replace(/\{(\d+)\}/g, (m, i: string) => (args[Number(i)] !== undefined ? String(args[Number(i)]) : m));
}

type Content = string | Node;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, ...content: Content[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (className) e.className = className;
  e.append(...content);
  return e;
}

function saveState(change: Partial<PageState>): void {
  state = { ...state, ...change };
  vscode.setState(state);
}

// ---- numbers -------------------------------------------------------------------------------------

/** An amount as written, grouped for the display language (1234567.5 → 1.234.567,50 in Turkish). */
function formatNumber(value: string, minDecimals = 2): string {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(value.trim());
  if (!m) return value;
  const turkish = (init?.locale ?? 'en').toLowerCase().startsWith('tr');
  const [group, point] = turkish ? ['.', ','] : [',', '.'];
  const whole = (m[2] || '0').replace(/\B(?=(\d{3})+(?!\d))/g, group);
  const fraction = (m[3] ?? '').padEnd(minDecimals, '0');
  return `${m[1] === '-' ? '-' : ''}${whole}${fraction ? point + fraction : ''}`;
}

function money(a: Amount | undefined): string {
  if (!a) return '';
  return `${a.numeric ? formatNumber(a.value) : a.value}${a.currency ? ` ${a.currency}` : ''}`;
}

// ---- the design --------------------------------------------------------------------------------

type DesignRender = { ok: true; html: string; scriptsLeftOut: number } | { ok: false; title: string; detail: string[] };

function parserError(doc: Document): string | undefined {
  const error = doc.getElementsByTagName('parsererror')[0];
  // Chromium wraps the parser's own message (its <div>) in headings meant for a page rendering XML.
  return error ? ((error.querySelector('div') ?? error).textContent ?? '').replace(/\s+/g, ' ').trim() : undefined;
}

const CAUSE_LABELS: Record<DesignCause['kind'], string> = { xpath2Function: 'cause.xpath2', undeclaredVariable: 'cause.variable', terminatingMessage: 'cause.message' };

function causeText(c: DesignCause): string {
  return 'name' in c ? L(CAUSE_LABELS[c.kind], c.name, c.line) : L(CAUSE_LABELS[c.kind], c.line);
}

/** Runs the design on the document: the frame's HTML, or what went wrong as the engine and the text tell it. */
function transform(xmlText: string, designText: string, scripts: boolean, ettn: string | undefined): DesignRender {
  const parser = new DOMParser();
  const stylesheet = parser.parseFromString(designText, 'application/xml');
  const designError = parserError(stylesheet);
  if (designError) return { ok: false, title: L('design.notWellFormed'), detail: [designError] };
  if (parsedXml?.text !== xmlText) parsedXml = { text: xmlText, doc: parser.parseFromString(xmlText, 'application/xml') };
  const source = parsedXml.doc;
  const sourceError = parserError(source);
  if (sourceError) return { ok: false, title: L('document.notWellFormed'), detail: [sourceError] };
  let output: Document | null;
  try {
    const processor = new XSLTProcessor();
    processor.importStylesheet(stylesheet);
    output = processor.transformToDocument(source);
  } catch (error) {
    return { ok: false, title: L('design.failed'), detail: [String(error)] };
  }
  if (!output?.documentElement) {
    const causes = likelyCauses(designText).map(causeText);
    return { ok: false, title: L('design.failed'), detail: [L('design.noResult'), ...(causes.length ? [L('design.likelyCauses'), ...causes] : [L('design.noCause')])] };
  }
  return { ok: true, ...frameDocument(output, scripts, ettn) };
}

/**
 * Before the design's scripts run (studio, scripts on): takes WebRTC (every RTC… interface) away from
 * the frame's window, which stops a script that calls it directly. It is no guarantee (README says so):
 * a script can read the nonce from its own element and run a script in a frame it makes, whose window
 * is new; the guarantee is the frame without scripts.
 */
const WEBRTC_GUARD = `(function(){for(var n of Object.getOwnPropertyNames(window))if(/^(webkit)?RTC/.test(n))try{delete window[n];}catch(e){}})();`;

/** Link relations that open connections CSP may not cover (preconnect, DNS prefetch) or fetch ahead: taken out. */
const isKeptLink = (link: Element) => (link.getAttribute('rel') ?? '').trim().toLowerCase() === 'stylesheet';

/**
 * The frame's document: the output with the frame's policy first. Without scripts, each script is
 * taken out; one in the body leaves a mark where it stood (what it would have drawn, such as the QR
 * code, is not shown), with the document's ETTN, which such codes carry. With scripts (studio, on),
 * they carry the design nonce, after the WebRTC guard.
 */
function frameDocument(output: Document, scripts: boolean, ettn: string | undefined): { html: string; scriptsLeftOut: number } {
  const root = output.documentElement;
  if (root.localName.toLowerCase() !== 'html') {
    // XML or text output: shown as text.
    const pre = `<pre>${escapeHtml(new XMLSerializer().serializeToString(output))}</pre>`;
    return { html: `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="${framePolicy(false)}"></head><body>${pre}</body></html>`, scriptsLeftOut: 0 };
  }
  let head = output.querySelector('head');
  if (!head) {
    head = output.createElement('head');
    root.insertBefore(head, root.firstChild);
  }
  // A refresh would navigate the frame away (and be blocked): the preview keeps the design's page.
  for (const meta of Array.from(output.querySelectorAll('meta[http-equiv]'))) if (/refresh|content-security-policy|dns-prefetch/i.test(meta.getAttribute('http-equiv') ?? '')) meta.remove();
  for (const base of Array.from(output.querySelectorAll('base'))) base.remove();
  for (const link of Array.from(output.querySelectorAll('link'))) if (!isKeptLink(link)) link.remove();
  const found = Array.from(output.querySelectorAll('script'));
  if (scripts) {
    for (const script of found) script.setAttribute('nonce', designNonce);
    const guard = output.createElement('script');
    guard.setAttribute('nonce', designNonce);
    guard.textContent = WEBRTC_GUARD;
    head.insertBefore(guard, head.firstChild);
  } else {
    for (const script of found) {
      if (output.body?.contains(script)) {
        const mark = output.createElement('span');
        mark.setAttribute('data-nilvera', 'script-not-run');
        mark.setAttribute('style', 'display:inline-block;border:1px dashed #888;padding:2px 6px;margin:2px;font:12px sans-serif;color:#333;background:#fff');
        mark.textContent = ettn ? L('design.scriptNotRunEttn', ettn) : L('design.scriptNotRun');
        script.replaceWith(mark);
      } else script.remove();
    }
  }
  const noDnsPrefetch = output.createElement('meta');
  noDnsPrefetch.setAttribute('http-equiv', 'x-dns-prefetch-control');
  noDnsPrefetch.setAttribute('content', 'off');
  head.insertBefore(noDnsPrefetch, head.firstChild);
  const policy = output.createElement('meta');
  policy.setAttribute('http-equiv', 'Content-Security-Policy');
  policy.setAttribute('content', framePolicy(scripts));
  head.insertBefore(policy, head.firstChild);
  return { html: `<!DOCTYPE html>${root.outerHTML}`, scriptsLeftOut: scripts ? 0 : found.length };
}

// ---- the structured view -------------------------------------------------------------------------

function section(title: string, ...content: Node[]): HTMLElement {
  return el('section', undefined, el('h2', undefined, title), ...content);
}

function table(headers: string[], rows: Content[][], numeric: number[] = []): HTMLTableElement {
  const t = el('table');
  const head = t.createTHead().insertRow();
  headers.forEach((h, i) => head.append(el('th', numeric.includes(i) ? 'num' : undefined, h)));
  const body = t.createTBody();
  for (const row of rows) body.insertRow().append(...row.map((cell, i) => el('td', numeric.includes(i) ? 'num' : undefined, cell)));
  return t;
}

/** How a finding is marked: the editor's severities, the same icons as its Problems view. */
const SEVERITY_MARK: Record<NumberFinding['severity'], { className: string; icon: string }> = {
  error: { className: 'bad', icon: '✗' },
  warning: { className: 'warning', icon: '⚠' },
  information: { className: 'info', icon: 'ℹ' },
};

function findingLine(f: NumberFinding): HTMLElement {
  const mark = SEVERITY_MARK[f.severity];
  const line = el('div', `finding ${mark.className}`, `${mark.icon} ${f.message}`);
  line.dataset.code = f.code;
  line.dataset.severity = f.severity;
  return line;
}

/** An identification: its scheme and value (after `label`, in a line), the valid mark or the editor's findings, its registry status (`quiet`: not when no list is downloaded, said once per party). */
function identificationLine(id: PartyIdentification, label?: string, quiet = false): HTMLElement {
  const line = el('div', 'identification');
  const scheme = el('span', 'scheme', id.scheme || L('party.noScheme'));
  const head = el('div', 'head', ...(label ? [el('span', 'muted', label)] : []), scheme, el('span', 'value', id.value));
  const n = id.taxNumber;
  if (n?.verdict === 'valid') head.append(el('span', 'ok', `✓ ${L('taxId.valid', n.kind ?? id.scheme)}`));
  if (n) line.dataset.verdict = n.verdict;
  const r = id.registry;
  if (r && !(quiet && r.status === 'noList')) {
    // The list's download time, as the day it was where the user is, in the display language.
    const listDay = r.status === 'noList' ? '' : localeDate(new Date(r.listDate), init?.locale ?? 'en');
    const text =
      r.status === 'noList' ? L('registry.noList')
      : r.status === 'registered' ? L('registry.registered', r.title, r.pkAlias ?? '-', listDay)
      : r.status === 'deregistered' ? L('registry.deregistered', r.title, listDay)
      : L('registry.notRegistered', listDay);
    head.append(el('span', r.status === 'registered' ? 'registry ok' : 'registry', text));
  }
  line.append(head, ...id.findings.map(findingLine));
  return line;
}

function partyCard(p: PartyView): HTMLElement {
  const name = el('div', 'name', p.name ?? L('party.noName'));
  const card = el('div', 'party', el('h3', undefined, p.role === 'other' ? L('role.other', p.element) : L(`role.${p.role}`)), name);
  card.dataset.role = p.role;
  let noListSaid = false;
  for (const id of p.identifications) {
    card.append(identificationLine(id, undefined, noListSaid));
    noListSaid ||= id.registry?.status === 'noList';
  }
  if (p.identifications.length === 0) card.append(el('div', 'muted', L('party.noIdentification')));
  const details = [p.address, p.taxOffice && L('party.taxOffice', p.taxOffice), p.contact];
  for (const detail of details) if (detail) card.append(el('div', 'muted', detail));
  return card;
}

/** A line's item cell: its name, and the tax numbers written in it (the owner of the goods…) with what the editor says about them. */
function itemCell(l: LineView): HTMLElement {
  const cell = el('div', undefined, l.name ?? '');
  // A number of no known role in a line is shown by its scheme alone.
  for (const id of l.identifications) cell.append(identificationLine(id, id.taxNumber && id.taxNumber.role !== 'other' ? `${L(`role.${id.taxNumber.role}`)}:` : undefined));
  return cell;
}

function taxText(t: TaxLine): string {
  return [t.name ?? t.code ?? '', t.percent !== undefined ? `%${t.percent}` : '', t.amount ? money(t.amount) : ''].filter(Boolean).join(' ');
}

function linesTable(model: StructuredModel): HTMLElement {
  const wrap = el('div');
  const shown = model.lines.slice(0, linesShown);
  const hasAmounts = model.lines.some((l) => l.amount || l.price);
  const headers = hasAmounts ? [L('line.id'), L('line.name'), L('line.quantity'), L('line.price'), L('line.taxes'), L('line.amount')] : [L('line.id'), L('line.name'), L('line.quantity')];
  const rows = shown.map((l: LineView): Content[] => {
    const quantity = l.quantity ? `${formatNumber(l.quantity, 0)}${l.unit ? ` ${l.unit}` : ''}` : '';
    const item = l.identifications.length > 0 ? itemCell(l) : (l.name ?? '');
    if (!hasAmounts) return [l.id ?? '', item, quantity];
    const taxes = [...l.taxes.map(taxText), ...l.withholdings.map((w) => `${L('line.withheld')} ${taxText(w)}`)].join('; ');
    return [l.id ?? '', item, quantity, money(l.price), taxes, money(l.amount)];
  });
  wrap.append(table(headers, rows, hasAmounts ? [2, 3, 5] : [2]));
  if (model.lines.length > shown.length) {
    const more = el('button', 'secondary', L('lines.showAll', model.lines.length));
    more.addEventListener('click', () => {
      linesShown = model.lines.length;
      renderStructured(model);
    });
    wrap.append(el('p', 'muted', L('lines.shown', shown.length, model.lineCount)), more);
  } else if (model.lineCount > model.lines.length) wrap.append(el('p', 'muted', L('lines.firstOnly', model.lines.length, model.lineCount)));
  const { error = 0, warning = 0, information = 0 } = model.findingsInLinesNotShown;
  if (error + warning + information > 0) wrap.append(el('p', error > 0 ? 'bad' : 'muted', L('lines.findingsNotShown', error, warning + information)));
  return wrap;
}

function checkText(c: TotalsCheck): string {
  const cur = c.currency ? ` ${c.currency}` : '';
  return L(`check.${c.id}`, `${formatNumber(c.stated)}${cur}`, `${formatNumber(c.computed)}${cur}`, `${formatNumber(c.difference)}${cur}`);
}

function taxSection(title: string, totals: TaxTotalView[], model: StructuredModel, checkId: 'taxSubtotals' | 'withholdingSubtotals'): HTMLElement {
  const parts: Node[] = [];
  totals.forEach((t, index) => {
    const rows: Content[][] = t.subtotals.map((s) => [s.name ?? '', s.code ?? '', s.percent ?? '', money(s.taxable), money(s.amount), s.exemption ?? '']);
    const check = model.checks.find((c) => c.id === checkId && c.index === index);
    const total = el('span', check && !check.ok ? 'bad' : undefined, `${money(t.total)}${check && !check.ok ? ` ✗` : ''}`);
    rows.push([L('tax.total'), '', '', '', total, '']);
    parts.push(table([L('tax.name'), L('tax.code'), L('tax.percent'), L('tax.taxable'), L('tax.amount'), L('tax.exemption')], rows, [2, 3, 4]));
    if (check && !check.ok) parts.push(el('p', 'bad', checkText(check)));
  });
  return section(title, ...parts);
}

// ---- GİB's verdict (document preview) -----------------------------------------------------------

let gibView: GibVerdictView | undefined;
/** Kept across renders at the top of the structured view; filled when the host's verdict comes. */
const gibSection = el('section', 'gib');
gibSection.setAttribute('aria-labelledby', 'gib-heading');
gibSection.hidden = true;

const GIB_SEVERITY: Record<'error' | 'warning' | 'info', NumberFinding['severity']> = { error: 'error', warning: 'warning', info: 'information' };

function gibOffer(label: string, action: 'download' | 'useFile'): HTMLButtonElement {
  const button = el('button', action === 'download' ? 'primary' : 'secondary', L(label));
  button.type = 'button';
  button.addEventListener('click', () => vscode.postMessage({ type: 'gibRules', action }));
  return button;
}

function renderGib(): void {
  const v = gibView;
  gibSection.hidden = !v || v.state === 'none';
  if (!v || v.state === 'none') return gibSection.replaceChildren();
  const heading = el('h2', v.state === 'checked' && v.errors > 0 ? 'bad' : undefined, v.state === 'checked' ? v.summary : L('gib.title'));
  heading.id = 'gib-heading';
  if (v.state === 'checking') return gibSection.replaceChildren(heading, el('p', 'muted', L('gib.checking')));
  if (v.state === 'failed') return gibSection.replaceChildren(heading, el('p', 'bad', L('gib.failed', v.message)));
  if (v.state === 'noRules') return gibSection.replaceChildren(heading, el('p', undefined, L('gib.noRules')), el('p', 'gib-offer', gibOffer('gib.download', 'download'), gibOffer('gib.useFile', 'useFile')));
  const list = el('ul', 'gib-findings');
  list.setAttribute('aria-label', L('gib.findings'));
  v.findings.forEach((f, index) => {
    const mark = SEVERITY_MARK[GIB_SEVERITY[f.severity]];
    const where = [f.where, L('gib.line', f.line)].filter(Boolean).join(' · ');
    const button = el('button', `finding ${mark.className}`, `${mark.icon} ${L(`gib.${f.severity}`)}: ${f.message}`, el('span', 'where', where));
    button.type = 'button';
    button.addEventListener('click', () => vscode.postMessage({ type: 'gibReveal', verdict: v.id, index }));
    list.append(el('li', undefined, button));
  });
  const notes = [
    ...(v.total > v.findings.length ? [el('p', 'muted', L('gib.more', v.findings.length, v.total))] : []),
    ...(v.hiddenDrafts > 0 ? [el('p', 'muted', v.hiddenDrafts === 1 ? L('gib.draftHidden') : L('gib.draftsHidden', v.hiddenDrafts))] : []),
  ];
  gibSection.replaceChildren(heading, ...(v.findings.length ? [list] : []), ...notes);
}

function renderStructured(model: StructuredModel): void {
  const facts: Array<[string, string | undefined]> = [
    [L('doc.id'), model.id],
    [L('doc.date'), [model.issueDate, model.issueTime].filter(Boolean).join(' ') || undefined],
    [L('doc.uuid'), model.uuid],
    [L('doc.currency'), model.currency],
  ];
  const dl = el('dl');
  for (const [k, v] of facts) if (v) dl.append(el('dt', undefined, k), el('dd', undefined, v));
  const title = [L(`kind.${model.kind}`), model.profile, model.typeCode].filter(Boolean).join(' · ');
  const head = el('div', 'document-head', el('h2', 'doc-title', title), dl);
  for (const n of model.notes) head.append(el('p', 'note', n));
  for (const r of model.references) head.append(el('p', 'muted', L('doc.reference', L(`reference.${r.type}`), r.id)));
  for (const v of model.vehicles) head.append(el('p', 'muted', L('doc.vehicle', v)));
  const out: Node[] = [head];

  const failedChecks = model.checks.filter((c) => !c.ok);
  if (failedChecks.length > 0) {
    const failed = failedChecks.map((c) => el('div', undefined, `✗ ${checkText(c)}`));
    const box = el('div', 'checks-failed', el('strong', undefined, L('checks.failed')), ...failed);
    box.setAttribute('role', 'alert');
    out.push(box);
  } else if (model.checks.length > 0) out.push(el('p', 'ok', `✓ ${L('checks.passed', model.checks.length)}`));

  for (const r of model.responses) out.push(section(L('section.response'), el('p', r.code === 'RED' ? 'bad' : 'ok', [r.code, r.description].filter(Boolean).join(': ')), el('p', 'muted', L('doc.reference', L('reference.DocumentReference'), r.referenceId ?? '-'))));

  out.push(section(L('section.parties'), el('div', 'parties', ...model.parties.map(partyCard))));
  if (model.lines.length > 0 || model.lineCount > 0) out.push(section(L('section.lines', model.lineCount), linesTable(model)));
  if (model.taxes.length > 0) out.push(taxSection(L('section.taxes'), model.taxes, model, 'taxSubtotals'));
  if (model.withholdings.length > 0) out.push(taxSection(L('section.withholdings'), model.withholdings, model, 'withholdingSubtotals'));
  if (model.totals.length > 0) {
    const rows = model.totals.map((t) => {
      const check = model.checks.find((c) => c.total === t.key && !c.ok);
      const cell = el('span', check ? 'bad' : undefined, `${money(t.amount)}${check ? ' ✗' : ''}`);
      if (check) cell.title = checkText(check);
      return [el('span', check ? 'bad' : undefined, L(`total.${t.key}`)), cell];
    });
    out.push(section(L('section.totals'), table([L('total.name'), L('total.amount')], rows, [1])));
  }
  structured.replaceChildren(...(init?.panel === 'document' ? [gibSection] : []), ...out);
}

// ---- showing an update ---------------------------------------------------------------------------

interface Notice {
  text: string;
  /** Shown with a close button; closing it runs this. */
  onDismiss?: () => void;
}

function setBanner(notices: Notice[]): void {
  banner.replaceChildren(
    ...notices.map((n) => {
      const p = el('p', undefined, n.text);
      if (n.onDismiss) {
        const close = el('button', 'dismiss', '×');
        close.title = L('notice.close');
        close.setAttribute('aria-label', L('notice.close'));
        close.addEventListener('click', () => {
          n.onDismiss?.();
          p.remove();
          banner.hidden = banner.childElementCount === 0;
        });
        p.append(close);
      }
      return p;
    }),
  );
  banner.hidden = notices.length === 0;
}

function setModeButtons(mode: ViewMode, designPossible: boolean): void {
  for (const button of Array.from(document.querySelectorAll<HTMLButtonElement>('[data-mode]'))) {
    const active = button.dataset.mode === mode;
    button.setAttribute('aria-pressed', String(active));
    button.classList.toggle('active', active);
    if (button.dataset.mode === 'design') {
      button.disabled = !designPossible;
      button.title = designPossible ? '' : hasXslt ? L('design.none') : L('noXslt.short');
    }
  }
}

/** The studio's switch for the design's scripts: pressed while they run. */
function setScriptsButton(on: boolean, designPossible: boolean): void {
  const button = $<HTMLButtonElement>('scripts');
  button.setAttribute('aria-pressed', String(on));
  button.classList.toggle('active', on);
  button.disabled = !designPossible;
  button.title = L('studio.scriptsHint');
}

/** Shows one of the page's three areas: the design's frame, the structured view, or why the design failed. */
function display(area: HTMLElement): void {
  for (const a of [frame, structured, problem]) a.hidden = a !== area;
}

function report(seq: number, mode: ViewMode, started: number, outcome: RenderOutcome): void {
  vscode.postMessage({ type: 'rendered', seq, mode, ms: Math.round((performance.now() - started) * 10) / 10, outcome });
}

function show(update: UpdateMessage, started = performance.now()): void {
  const notices: Notice[] = [];
  const result = update.result;
  $<HTMLElement>('title').textContent = update.source;
  const designText = update.design.text;
  const designPossible = hasXslt && designText !== undefined;
  let mode: ViewMode = state.userMode ?? update.mode;
  if (mode === 'design' && !designPossible) mode = 'structured';
  if (!hasXslt && designText !== undefined) {
    if (init?.panel === 'studio') notices.push({ text: L('noXslt.studio', engineName()) });
    else if (!state.noXsltDismissed) notices.push({ text: L('noXslt.document', engineName()), onDismiss: () => saveState({ noXsltDismissed: true }) });
  }
  if (designText === undefined && update.design.origin === 'embedded' && update.design.problem && update.design.problem !== 'none') notices.push({ text: L(`design.${update.design.problem}`) });
  setModeButtons(mode, designPossible);
  // The design's scripts run only in the studio, and only when its user turned them on.
  const scripts = init?.panel === 'studio' && update.scripts && designNonce !== '';
  setScriptsButton(scripts, designPossible);
  problem.replaceChildren();

  // Without a design to run, the mode is the structured view (above); a document that is not UBL-TR has only that.
  if (mode === 'structured' || designText === undefined || (!result.ok && result.reason === 'notUbl')) {
    display(structured);
    if (result.ok) renderStructured(result.model);
    else structured.replaceChildren(el('p', 'bad', result.reason === 'notWellFormed' ? L('document.notWellFormedAt', result.line, result.column, result.message) : L('document.notUbl', result.root, result.namespace || '-')));
    setBanner(notices);
    report(update.seq, 'structured', started, !result.ok || hasXslt || designText === undefined ? 'structured' : 'noXslt');
    return;
  }
  const references = externalReferences(designText);
  if (references.length > 0) notices.push({ text: L('design.references', references.slice(0, 5).join(', ')) });
  const rendered = transform(xml, designText, scripts, result.ok ? result.model.uuid : undefined);
  if (rendered.ok && rendered.scriptsLeftOut > 0) notices.push({ text: L(init?.panel === 'studio' ? 'design.scriptsOffStudio' : 'design.scriptsOff', rendered.scriptsLeftOut) });
  if (scripts) notices.push({ text: L('design.scriptsOn') });
  setBanner(notices);
  if (!rendered.ok) {
    display(problem);
    const toStructured = el('button', 'secondary', L('mode.structured'));
    toStructured.addEventListener('click', () => chooseMode('structured'));
    problem.append(el('h2', 'bad', rendered.title), ...rendered.detail.map((d) => el('p', undefined, d)), toStructured);
    report(update.seq, 'design', started, 'designFailed');
    return;
  }
  display(frame);
  // The sandbox is read when the frame navigates, which setting srcdoc does.
  frame.setAttribute('sandbox', frameSandbox(scripts));
  frame.onload = () => {
    frame.onload = null;
    report(update.seq, 'design', started, 'design');
  };
  frame.srcdoc = rendered.html;
}

function engineName(): string {
  const m = /Chrom(?:e|ium)\/(\d+)/.exec(navigator.userAgent);
  return m ? `Chromium ${m[1]}` : navigator.userAgent.slice(0, 60);
}

function chooseMode(mode: ViewMode): void {
  saveState({ userMode: mode });
  vscode.postMessage({ type: 'mode', mode });
  if (last) show(last);
}

for (const button of Array.from(document.querySelectorAll<HTMLButtonElement>('[data-mode]'))) {
  button.addEventListener('click', () => chooseMode(button.dataset.mode as ViewMode));
}
$<HTMLButtonElement>('upload').addEventListener('click', () => vscode.postMessage({ type: 'upload' }));
$<HTMLButtonElement>('pick').addEventListener('click', () => vscode.postMessage({ type: 'pickInvoice' }));
$<HTMLButtonElement>('scripts').addEventListener('click', (event) => {
  const on = (event.currentTarget as HTMLElement).getAttribute('aria-pressed') === 'true';
  vscode.postMessage({ type: 'scripts', allow: !on });
});

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  // Only VS Code speaks to this page: its messages come from this page's own origin. The design's frame
  // has an opaque origin ("null"), so whatever it posts is ignored.
  if (event.origin !== window.origin || event.source === frame.contentWindow) return;
  const message = event.data;
  if (message?.type === 'init') {
    init = message;
    document.documentElement.lang = message.locale;
    document.body.classList.toggle('studio', message.panel === 'studio');
    for (const node of Array.from(document.querySelectorAll<HTMLElement>('[data-label]'))) node.textContent = L(node.dataset.label as string);
    frame.title = L('frame.title');
    structured.setAttribute('aria-label', L('structured.region'));
  } else if (message?.type === 'update') {
    const started = performance.now();
    if (message.xml !== undefined) xml = message.xml;
    if (JSON.stringify(state.restore) !== JSON.stringify(message.restore)) saveState({ restore: message.restore });
    last = message;
    linesShown = LINES_SHOWN_AT_FIRST;
    show(message, started);
  } else if (message?.type === 'gib') {
    gibView = message.verdict;
    renderGib();
  }
});

vscode.postMessage({ type: 'ready', xslt: hasXslt, engine: engineName() });
