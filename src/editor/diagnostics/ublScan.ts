// A linear, forgiving scan of a UBL-TR invoice's text: the root element, cbc:ProfileID and every
// PartyIdentification/ID with schemeID VKN or TCKN, with document offsets. No DOM and no validation:
// any prefix, attributes in any order, either quote, CDATA, comments and a half-typed tail all work,
// so diagnostics follow the text as it is edited.

export const UBL_INVOICE_NAMESPACE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';

export type PartyRole = 'supplier' | 'customer' | 'other';
export type PartyScheme = 'VKN' | 'TCKN';

/** An element's text with the document range of its trimmed value (CDATA markers and comments skipped). */
export interface ScannedText {
  value: string;
  start: number;
  end: number;
}

export interface ScannedPartyId extends ScannedText {
  scheme: PartyScheme;
  role: PartyRole;
  /** Local name of the nearest enclosing *Party element (AccountingCustomerParty, BuyerCustomerParty…). */
  partyElement: string | undefined;
}

export interface UblScan {
  /** The root is a UBL Invoice (local name Invoice in the Invoice-2 namespace). */
  isInvoice: boolean;
  profileId?: ScannedText;
  partyIds: ScannedPartyId[];
}

interface OpenElement {
  local: string;
  /** Set for the elements whose text is collected. */
  capture?: { kind: 'profile' } | { kind: 'partyId'; scheme: PartyScheme };
}

const LT = 60; // <
const GT = 62; // >
const SLASH = 47;
const BANG = 33;
const QUESTION = 63;
const COLON = 58;

function isNameEnd(code: number): boolean {
  // white space, '>', '/', or end of text (NaN)
  return code === 32 || code === 9 || code === 10 || code === 13 || code === GT || code === 47 || Number.isNaN(code);
}

/** Parses `name="value"` pairs between `from` and the tag's '>' (quoted '>' allowed). */
function parseAttributes(text: string, from: number, end: number): Map<string, string> {
  const attrs = new Map<string, string>();
  const re = /([^\s=/>]+)\s*=\s*("([^"]*)"|'([^']*)')/g;
  const slice = text.slice(from, end);
  for (const m of slice.matchAll(re)) attrs.set(m[1], m[3] ?? m[4] ?? '');
  return attrs;
}

/** End of a start tag: the index of its '>' outside quotes, or -1 when the text ends first. */
function tagEnd(text: string, from: number): number {
  let quote = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) quote = c;
    else if (c === GT) return i;
    else if (c === LT) return -1; // a half-typed tag: the next '<' starts a new one
  }
  return -1;
}

/** Collects an element's text content from `from` to its end tag, skipping comments and CDATA markers. */
class TextCollector {
  private chars: string[] = [];
  private offsets: number[] = [];

  add(text: string, from: number, to: number): void {
    for (let i = from; i < to; i++) {
      this.chars.push(text[i]);
      this.offsets.push(i);
    }
  }

  result(): ScannedText | undefined {
    let a = 0;
    let b = this.chars.length - 1;
    while (a <= b && /\s/.test(this.chars[a])) a++;
    while (b >= a && /\s/.test(this.chars[b])) b--;
    if (a > b) return undefined;
    return { value: this.chars.slice(a, b + 1).join(''), start: this.offsets[a], end: this.offsets[b] + 1 };
  }
}

function partyContext(stack: OpenElement[]): { role: PartyRole; partyElement: string | undefined } {
  for (let i = stack.length - 1; i >= 0; i--) {
    const name = stack[i].local;
    if (name === 'Party' || !name.endsWith('Party')) continue;
    if (name === 'AccountingSupplierParty') return { role: 'supplier', partyElement: name };
    if (name === 'AccountingCustomerParty') return { role: 'customer', partyElement: name };
    return { role: 'other', partyElement: name };
  }
  return { role: 'other', partyElement: undefined };
}

function schemeOf(attrs: Map<string, string>): PartyScheme | undefined {
  const scheme = attrs.get('schemeID')?.trim().toUpperCase();
  return scheme === 'VKN' || scheme === 'TCKN' ? scheme : undefined;
}

/** The next occurrence of a needle at or after a position, cached so a forward scan stays linear. */
class NextOccurrence {
  private found = -2; // -2: not searched yet; Infinity: none left
  private searchedFrom = 0;

  constructor(
    private readonly text: string,
    private readonly needle: string,
  ) {}

  from(position: number): number {
    if (this.found === -2 || (this.found < position && this.found !== Infinity) || position < this.searchedFrom) {
      const at = this.text.indexOf(this.needle, position);
      this.found = at < 0 ? Infinity : at;
      this.searchedFrom = position;
    }
    return this.found;
  }
}

/**
 * Where a child of the root that holds nothing of interest ends (just after its end tag), so its
 * subtree is skipped: ~99% of a large invoice is InvoiceLines. Not skipped when its span holds a
 * PartyIdentification, a comment or CDATA (which could hide the end tag), or it has no end tag yet.
 */
function skippableEnd(text: string, qname: string, contentStart: number, markers: NextOccurrence[]): number | undefined {
  const close = text.indexOf(`</${qname}`, contentStart);
  if (close < 0) return undefined;
  for (const m of markers) if (m.from(contentStart) < close) return undefined;
  const gt = text.indexOf('>', close);
  return gt < 0 ? undefined : gt + 1;
}

export function scanUbl(text: string): UblScan {
  const result: UblScan = { isInvoice: false, partyIds: [] };
  const stack: OpenElement[] = [];
  let collector: TextCollector | undefined;
  let capturing: OpenElement | undefined;
  let sawRoot = false;
  let i = 0;
  const length = text.length;
  const markers = ['PartyIdentification', '<!--', '<![CDATA['].map((needle) => new NextOccurrence(text, needle));

  const finishCapture = (): void => {
    if (!capturing?.capture || !collector) return;
    const scanned = collector.result();
    if (scanned && capturing.capture.kind === 'profile') result.profileId ??= scanned;
    if (scanned && capturing.capture.kind === 'partyId') result.partyIds.push({ ...scanned, scheme: capturing.capture.scheme, ...partyContext(stack) });
    collector = undefined;
    capturing = undefined;
  };

  // Hot loop (a 5 MB invoice has ~200,000 tags): char codes and indexOf, no regex and no
  // allocation for end tags; attributes are parsed only where they matter (root, party IDs).
  while (i < length) {
    const lt = text.indexOf('<', i);
    const textEnd = lt < 0 ? length : lt;
    if (collector && textEnd > i) collector.add(text, i, textEnd);
    if (lt < 0) break;
    const next = text.charCodeAt(lt + 1);

    if (next === BANG || next === QUESTION) {
      if (text.startsWith('<!--', lt)) {
        const close = text.indexOf('-->', lt + 4);
        if (close < 0) break;
        i = close + 3;
      } else if (text.startsWith('<![CDATA[', lt)) {
        const close = text.indexOf(']]>', lt + 9);
        if (collector) collector.add(text, lt + 9, close < 0 ? length : close);
        if (close < 0) break;
        i = close + 3;
      } else {
        // Processing instruction or DOCTYPE (internal subsets are not expected in invoices).
        const close = text.indexOf('>', lt + 2);
        if (close < 0) break;
        i = close + 1;
      }
      continue;
    }

    const isEnd = next === SLASH;
    const nameStart = lt + (isEnd ? 2 : 1);
    let nameEnd = nameStart;
    let localStart = nameStart;
    for (;;) {
      const c = text.charCodeAt(nameEnd);
      if (isNameEnd(c)) break;
      if (c === COLON) localStart = nameEnd + 1;
      nameEnd++;
    }
    if (nameEnd === nameStart) {
      i = lt + 1;
      continue;
    }
    const gt = tagEnd(text, nameEnd);

    if (isEnd) {
      // Pop to the matching element, so a missing end tag does not derail the rest.
      const localLength = nameEnd - localStart;
      let at = stack.length - 1;
      while (at >= 0 && !(stack[at].local.length === localLength && text.startsWith(stack[at].local, localStart))) at--;
      if (at >= 0) {
        if (capturing && stack.indexOf(capturing) >= at) finishCapture();
        stack.length = at;
      }
      i = gt < 0 ? nameEnd : gt + 1;
      continue;
    }

    const local = text.slice(localStart, nameEnd);
    const selfClosing = gt > 0 && text.charCodeAt(gt - 1) === SLASH;
    const attrsEnd = gt < 0 ? length : selfClosing ? gt - 1 : gt;

    if (!sawRoot) {
      sawRoot = true;
      const prefix = localStart > nameStart ? text.slice(nameStart, localStart - 1) : '';
      const ns = parseAttributes(text, nameEnd, attrsEnd).get(prefix ? `xmlns:${prefix}` : 'xmlns');
      result.isInvoice = local === 'Invoice' && ns === UBL_INVOICE_NAMESPACE;
      if (!result.isInvoice) return result;
    }

    // A start tag inside a captured element (unexpected) ends the capture at that point.
    if (capturing) finishCapture();
    const element: OpenElement = { local };
    if (stack.length === 1 && local === 'ProfileID') element.capture = { kind: 'profile' };
    else if (local === 'ID' && stack.length > 0 && stack[stack.length - 1].local === 'PartyIdentification') {
      const scheme = schemeOf(parseAttributes(text, nameEnd, attrsEnd));
      if (scheme) element.capture = { kind: 'partyId', scheme };
    }
    if (gt < 0) {
      // Half-typed tag: nothing after it can be trusted as its content.
      i = nameEnd;
      continue;
    }
    if (!selfClosing && stack.length === 1 && !element.capture) {
      const end = skippableEnd(text, text.slice(nameStart, nameEnd), gt + 1, markers);
      if (end !== undefined) {
        i = end;
        continue;
      }
    }
    if (!selfClosing) {
      stack.push(element);
      if (element.capture) {
        capturing = element;
        collector = new TextCollector();
      }
    }
    i = gt + 1;
  }
  // A value typed at the end of a half-typed document still counts.
  finishCapture();
  return result;
}
