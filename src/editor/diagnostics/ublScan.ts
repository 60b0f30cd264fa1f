// A linear, forgiving scan of a UBL-TR document's text (scanXml of src/domain/ubl/xmlReader.ts): which
// document type the root is (src/domain/ubl/documentTypes.ts), its cbc:ProfileID, and every element that
// holds a tax number (src/domain/ubl/taxSchemes.ts: party identifications with a tax scheme, signature
// ids, HKS goods owners, a despatch's driver) with its party role and document offsets. No DOM and no
// validation, so diagnostics follow the text as it is edited. Subtrees that hold no number are skipped
// unread, found by end-tag searches whose total reading is capped (SKIP_READ_BUDGET): linear on any text.
import { documentTypeOf, partyRoleOf, UBL_DOCUMENT_TYPES, type PartyRole, type UblDocumentType } from '../../domain/ubl/documentTypes';
import { TAX_NUMBER_ELEMENTS, taxNumberElement, taxSchemeOf, type TaxScheme } from '../../domain/ubl/taxSchemes';
import { attributesOf, scanXml, tagEnd } from '../../domain/ubl/xmlReader';
import { GT, isRegexSpace, isXmlSpace } from '../../domain/xmlChars';

/** An element's text with the document range of its trimmed value (CDATA markers and comments skipped). */
export interface ScannedText {
  value: string;
  start: number;
  end: number;
}

export interface ScannedTaxNumber extends ScannedText {
  /** The scheme it is checked under: its schemeID's, or the one its element's place implies. */
  scheme: TaxScheme;
  role: PartyRole;
  /** Local names from the root's child down to the number's element (shared between numbers: read-only). */
  path: readonly string[];
  /** The element was empty: then value is '' and the range is the element's start tag. */
  empty: boolean;
}

export interface UblScan {
  /** The root's document type; undefined for any other XML (nothing else is then scanned). */
  documentType: UblDocumentType | undefined;
  profileId?: ScannedText;
  taxNumbers: ScannedTaxNumber[];
}

/** Content longer than this (trimmed) is no identifier being typed: an unclosed CDATA ran on, a paste. */
const MAX_VALUE_CHARS = 256;
/** End tags are matched this far down the open elements (UBL nests about ten deep). */
const MAX_POP_SEARCH = 64;
/** Skipping is tried for elements up to this depth, and party roles are read up to it. */
const MAX_SKIP_DEPTH = 24;
/** Elements nested deeper than this are not tracked (no UBL document comes near; garbage would grow the stack). */
const MAX_OPEN_ELEMENTS = 256;
/** Searches for end tags of skipped subtrees may read this many times the text, then skipping stops. */
const SKIP_READ_BUDGET = 4;
/** Distinct element names whose end tags are searched for (UBL has a few hundred). */
const MAX_END_TAG_FINDERS = 4096;

const ROOT_NAMES: ReadonlySet<string> = new Set(UBL_DOCUMENT_TYPES.map((t) => t.kind));
const NUMBER_ELEMENTS = new Set(TAX_NUMBER_ELEMENTS.map((e) => e.element));
/** Elements whose children hold numbers: never skipped whole. */
const NEVER_SKIPPED = new Set(TAX_NUMBER_ELEMENTS.map((e) => e.parent));
/**
 * An element whose span holds one of these is not skipped: a number's parent element somewhere below
 * (cac:Signature only sits under the root), or a comment or CDATA that could hide its end tag.
 */
const SKIP_MARKERS = ['PartyIdentification', 'AdditionalItemIdentification', 'DriverPerson', '<!--', '<![CDATA['];

/**
 * The next occurrence of a needle at or after a position, cached so a forward scan stays linear; for an
 * end tag (`</cac:Party`), only where its name ends (not `</cac:PartyName`).
 */
class NextOccurrence {
  private found = -1;
  /** How many characters the last from() read. */
  read = 0;

  constructor(
    private readonly text: string,
    private readonly needle: string,
    private readonly endTag = false,
  ) {}

  /** The next occurrence at or after `position`; Infinity when there is none. */
  from(position: number): number {
    this.read = 0;
    if (this.found >= position) return this.found;
    const { text, needle } = this;
    for (let search = position; ; search = this.found + 1) {
      const k = text.indexOf(needle, search);
      this.found = k < 0 ? Infinity : k;
      this.read = (k < 0 ? text.length : k) - position;
      const after = text.charCodeAt(k + needle.length);
      if (k < 0 || !this.endTag || after === GT || isXmlSpace(after) || Number.isNaN(after)) return this.found;
    }
  }
}

/** An element whose text is being collected: segments of the text, CDATA markers and comments left out. */
class Capture {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  constructor(
    /** Index of the element in the open-element stack. */
    readonly depth: number,
    /** The start tag's range (where an empty value is reported). */
    readonly tagStart: number,
    readonly tagEnd: number,
    /** What the number is checked as; none for the cbc:ProfileID. */
    readonly taxNumber?: Pick<ScannedTaxNumber, 'scheme' | 'role' | 'path'>,
  ) {}

  add(from: number, to: number): void {
    if (to <= from) return;
    this.starts.push(from);
    this.ends.push(to);
  }

  /** The trimmed value and its document range; undefined when empty, or too long to be a value. */
  value(text: string): ScannedText | 'empty' | undefined {
    const { starts, ends } = this;
    // The first and the last character that is not white space (as `\s` sees it: a pasted number may
    // carry no-break spaces or a BOM), across the segments.
    let first = -1;
    let firstSegment = 0;
    for (let s = 0; s < starts.length && first < 0; s++) {
      for (let i = starts[s]; i < ends[s]; i++) {
        if (!isRegexSpace(text.charCodeAt(i))) {
          first = i;
          firstSegment = s;
          break;
        }
      }
    }
    if (first < 0) return 'empty';
    let last = -1;
    let lastSegment = 0;
    for (let s = starts.length - 1; s >= 0 && last < 0; s--) {
      for (let i = ends[s] - 1; i >= starts[s]; i--) {
        if (!isRegexSpace(text.charCodeAt(i))) {
          last = i;
          lastSegment = s;
          break;
        }
      }
    }
    let value = '';
    for (let s = firstSegment; s <= lastSegment; s++) {
      value += text.slice(s === firstSegment ? first : starts[s], s === lastSegment ? last + 1 : ends[s]);
      if (value.length > MAX_VALUE_CHARS) return undefined;
    }
    return { value, start: first, end: last + 1 };
  }
}

export function scanUbl(text: string): UblScan {
  const result: UblScan = { documentType: undefined, taxNumbers: [] };
  const length = text.length;
  /** Local names of the open elements, the root first. */
  const stack: string[] = [];
  let capture: Capture | undefined;
  let type: UblDocumentType | undefined;
  const markers = SKIP_MARKERS.map((needle) => new NextOccurrence(text, needle));
  const endTags = new Map<string, NextOccurrence>();
  let skipBudget = SKIP_READ_BUDGET * length;

  /**
   * Path and role of a number's element below the open elements; one shared, read-only path per place.
   * Places are keyed by the numbers of the names (each name numbered once, as its tag is read), so a
   * key stays short however long the names are: keyed by the names, a number below ancestors with
   * long names cost the length of those names again, and many numbers made the scan quadratic.
   */
  const places = new Map<string, { path: readonly string[]; role: PartyRole }>();
  const nameIds = new Map<string, number>();
  const idOf = (local: string): number => {
    let id = nameIds.get(local);
    if (id === undefined) nameIds.set(local, (id = nameIds.size));
    return id;
  };
  /** The name numbers of the open elements (up to MAX_SKIP_DEPTH + 1 of them; deeper places are not keyed). */
  const stackIds: number[] = [];
  const placeOf = (open: string[], local: string): { path: readonly string[]; role: PartyRole } => {
    const key = `${stackIds.slice(1, open.length).join('/')}/${idOf(local)}`;
    let place = places.get(key);
    if (!place) {
      const path = [...open.slice(1), local];
      places.set(key, (place = { path, role: partyRoleOf(type as UblDocumentType, path) }));
    }
    return place;
  };

  /** `terminated`: the element's own end tag (or />) closed it, so an empty value is a finding. */
  const finishCapture = (terminated: boolean): void => {
    const c = capture;
    capture = undefined;
    if (!c) return;
    const scanned = c.value(text);
    if (scanned === undefined) return;
    if (!c.taxNumber) {
      if (scanned !== 'empty') result.profileId ??= scanned;
      return;
    }
    if (scanned !== 'empty') result.taxNumbers.push({ ...scanned, ...c.taxNumber, empty: false });
    else if (terminated) result.taxNumbers.push({ value: '', start: c.tagStart, end: c.tagEnd, ...c.taxNumber, empty: true });
  };

  /** Where an element that holds nothing of interest ends (just after its end tag), to skip it unread. */
  const skippableEnd = (qname: string, contentStart: number): number | undefined => {
    if (skipBudget <= 0) return undefined;
    let finder = endTags.get(qname);
    if (!finder) {
      if (endTags.size >= MAX_END_TAG_FINDERS) return undefined;
      endTags.set(qname, (finder = new NextOccurrence(text, `</${qname}`, true)));
    }
    const at = finder.from(contentStart);
    skipBudget -= finder.read;
    if (at === Infinity) return undefined;
    for (const m of markers) if (m.from(contentStart) < at) return undefined;
    const gt = tagEnd(text, at + 2);
    return gt < 0 ? undefined : gt + 1;
  };

  // Most of a large document's tags are in its lines, skipped unread; attributes are parsed only where
  // they matter (the root, number elements).
  scanXml(text, {
    malformed: () => undefined,
    text(from, to) {
      capture?.add(from, to);
    },
    end(tag) {
      // Pop to the matching element, so a missing end tag does not derail the rest.
      const localLength = tag.nameEnd - tag.localStart;
      const floor = Math.max(0, stack.length - MAX_POP_SEARCH);
      let at = stack.length - 1;
      while (at >= floor && !(stack[at].length === localLength && text.startsWith(stack[at], tag.localStart))) at--;
      if (at < floor) return;
      if (capture && capture.depth >= at) finishCapture(capture.depth === at);
      stack.length = at;
      if (stackIds.length > at) stackIds.length = at;
    },
    start(tag) {
      const local = text.slice(tag.localStart, tag.nameEnd);
      if (!type) {
        // The root decides: any other XML (a pom.xml, a .csproj) is left at once.
        if (!ROOT_NAMES.has(local)) return length;
        const prefix = tag.localStart > tag.nameStart ? text.slice(tag.nameStart, tag.localStart - 1) : '';
        const xmlns = prefix ? `xmlns:${prefix}` : 'xmlns';
        type = documentTypeOf(local, attributesOf(text, tag, xmlns).get(xmlns));
        result.documentType = type;
        if (!type) return length;
      }
      // A start tag inside a captured element (unexpected) ends the capture at that point.
      if (capture) finishCapture(false);
      let opened: Capture | undefined;
      const depth = stack.length;
      if (depth === 1 && local === 'ProfileID') {
        opened = new Capture(depth, tag.lt, tag.resume);
      } else if (depth > 0 && NUMBER_ELEMENTS.has(local)) {
        const element = taxNumberElement(stack[depth - 1], local);
        const scheme = element && taxSchemeOf(element.scheme === 'schemeID' ? attributesOf(text, tag, 'schemeID').get('schemeID') : element.scheme);
        if (scheme) {
          const place = depth <= MAX_SKIP_DEPTH ? placeOf(stack, local) : { path: [local], role: 'other' as const };
          opened = new Capture(depth, tag.lt, tag.resume, { scheme, ...place });
        }
      }
      // Half-typed tag: nothing after it can be trusted as its content.
      if (tag.gt < 0) return undefined;
      if (tag.selfClosing) {
        if (opened) {
          capture = opened;
          finishCapture(true);
        }
        return undefined;
      }
      if (!opened && depth > 0 && depth <= MAX_SKIP_DEPTH && !NEVER_SKIPPED.has(local)) {
        const skipTo = skippableEnd(text.slice(tag.nameStart, tag.nameEnd), tag.resume);
        if (skipTo !== undefined) return skipTo;
      }
      if (stack.length < MAX_OPEN_ELEMENTS) {
        if (stack.length <= MAX_SKIP_DEPTH) stackIds.push(idOf(local));
        stack.push(local);
        capture = opened;
      }
      return undefined;
    },
  });
  // A value typed at the end of a half-typed document still counts.
  finishCapture(false);
  return result;
}
