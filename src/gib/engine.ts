// GİB's verdict on one UBL-TR document: its XSD (UBL-TR1.2.1_Paketi) and its Schematron
// (e-FaturaPaketi), read from GİB's archives or folders, as findings at the element each one is
// about. The one engine module: the CLI (src/gib/cli.ts) and the extension's worker use it.
// Plain Node, no vscode.

import type * as slimdom from 'slimdom';
import { readGibFiles, type GibFileSet } from './rulesSource';
import { elementsInOrder, readSchematron, type ReadOptions, type SchematronRules } from './schematron';
import { positionOf, prepareRules, runRules, type PreparedRules, type TypeChoice } from './runner';
import { GibSchemas, type XsdDocumentType } from './xsd';
import { isSignatureOnly } from './draftFindings';
import { GIB_DOCUMENT_ROOTS } from './documentRoots';
import { parseGibDocument } from './xmlTree';
import { stopIfAsked, type ShouldStop } from './checkStop';
import type { ParsedXPath } from './parsedXPath';

export type GibSeverity = 'error' | 'warning' | 'info';

export interface GibFinding {
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
  readonly severity: GibSeverity;
  /** 'GİB XSD', 'GİB rules <release>', or 'XML' for a document that is not well-formed. */
  readonly source: string;
  /** GİB's own text (or libxml2's, for the XSD). */
  readonly message: string;
  /** The Schematron rule's context ('' for XSD findings). */
  readonly ruleContext: string;
  /** Where the finding is, e.g. /Invoice/cac:InvoiceLine[2]/cbc:InvoicedQuantity ('' when unknown). */
  readonly elementPath: string;
  /** The path of the rule's context node (an attribute's is its element's + /@name); '' for XSD findings. */
  readonly contextPath: string;
  /** Only says the document is not signed yet: normal for a draft, shown only when asked for. */
  readonly draft: boolean;
  readonly kind: 'xml' | 'xsd' | 'rule' | 'note' | 'unchecked';
  /** For rule findings: the abstract rule and the test, which name the assert (GİB's asserts have no ids). */
  readonly rule?: string;
  readonly test?: string;
}

export interface GibValidation {
  readonly documentType: string | undefined;
  readonly findings: GibFinding[];
}

export interface GibEngineSources {
  /** e-FaturaPaketi.zip or a folder holding its schematron/ files; without it, no Schematron. */
  readonly rules?: string;
  /** UBL-TR1.2.1_Paketi.zip or a folder holding its xsdrt/ files; without it, no XSD. */
  readonly schemas?: string;
  readonly readOptions?: ReadOptions;
  /** For tests: how `$type` is chosen (default: runner.typeOf). */
  readonly chooseType?: TypeChoice;
  /** GİB's Schematron already read from these rule files (the package store keeps it); ignored with readOptions. */
  readonly schematron?: SchematronRules;
  /** fontoxpath's parsed form of the expressions from an earlier worker (parsedXPath.ts); a new one by default. */
  readonly xpath?: ParsedXPath;
}

export interface GibEngine {
  /** The rules' release (History.txt's newest entry), undefined without rules. */
  readonly release: string | undefined;
  readonly hasRules: boolean;
  readonly hasSchemas: boolean;
  /**
   * GİB's verdict on one document. `shouldStop` is asked between the check's steps: when it says so
   * the check ends by throwing GibCheckStopped (checkStop.ts), e.g. when a newer text of the document waits.
   */
  validate(text: string, options?: { shouldStop?: ShouldStop }): Promise<GibValidation>;
  /** Compiles the XSD of a type ahead of use. */
  prepare(type: XsdDocumentType): Promise<void>;
  /** The expressions the checks handed fontoxpath as text and those from the stored parsed form (parsedXPath.ts). */
  readonly xpath: ParsedXPath | undefined;
  /**
   * Stores what the checks so far parsed from text, for the next worker (engineSource.ts sets it for the
   * installed package; the worker calls it after posting a check's findings). Never throws.
   */
  storeParsedXPath?(): Promise<void>;
}

/** Reads GİB's packages (each once) and returns the engine. */
export async function loadGibEngine(sources: GibEngineSources): Promise<GibEngine> {
  const [ruleFiles, schemaFiles] = await Promise.all([
    sources.rules ? readGibFiles(sources.rules, (n) => /(^|\/)schematron\/[^/]+$/i.test(n) || /UBL-TR_[^/]*\.xml$|History\.txt$/i.test(n)) : undefined,
    sources.schemas ? readGibFiles(sources.schemas, (n) => n.toLowerCase().endsWith('.xsd') && n.includes('xsdrt/')) : undefined,
  ]);
  return createGibEngine(ruleFiles, schemaFiles, sources);
}

export function createGibEngine(ruleFiles: GibFileSet | undefined, schemaFiles: GibFileSet | undefined, options: Pick<GibEngineSources, 'readOptions' | 'chooseType' | 'schematron' | 'xpath'> = {}): GibEngine {
  // The schemas first: libxml2's WebAssembly compiles while the rules are read and prepared.
  const schemas = schemaFiles ? new GibSchemas(schemaFiles) : undefined;
  const read = (files: GibFileSet): SchematronRules => (options.schematron && !options.readOptions ? options.schematron : readSchematron(files, options.readOptions));
  const prepared: PreparedRules | undefined = ruleFiles ? prepareRules(read(ruleFiles), options.xpath) : undefined;
  const release = prepared?.source.release;
  const rulesSource = `GİB rules${release ? ' ' + release : ''}`;
  return {
    release,
    hasRules: !!prepared,
    hasSchemas: !!schemas,
    xpath: prepared?.xpath,
    prepare: async (type) => schemas?.prepare(type),
    async validate(text: string, { shouldStop }: { shouldStop?: ShouldStop } = {}): Promise<GibValidation> {
      const findings: GibFinding[] = [];
      let doc: slimdom.Document;
      try {
        doc = parseGibDocument(text);
      } catch (e) {
        findings.push(xmlError(e));
        return { documentType: undefined, findings };
      }
      const root = doc.documentElement;
      const known = root && Object.entries(GIB_DOCUMENT_ROOTS).find(([name, r]) => name === root.localName && r.ns === root.namespaceURI);
      if (!root || !known) return { documentType: undefined, findings };
      const type = known[1].type;
      const signed = hasSignature(root);
      stopIfAsked(shouldStop);

      if (schemas && type !== 'Envelope') {
        for (const e of await schemas.validate(type, text)) {
          findings.push({ line: e.line, column: e.column, severity: 'error', source: 'GİB XSD', message: e.message, ruleContext: '', elementPath: '', contextPath: '', draft: !signed && isSignatureOnly({ kind: 'xsd', message: e.message }), kind: 'xsd' });
        }
      }
      stopIfAsked(shouldStop);
      if (type === 'CreditNote') {
        findings.push({ ...startOf(root), severity: 'info', source: rulesSource, message: CREDIT_NOTE_NOTE, ruleContext: '', elementPath: pathOf(root), contextPath: '', draft: false, kind: 'note' });
      } else if (prepared) {
        const result = runRules(prepared, doc, options.chooseType, shouldStop);
        for (const hit of result.hits) {
          findings.push({
            ...startOf(hit.at),
            severity: 'error',
            source: rulesSource,
            message: hit.message,
            ruleContext: hit.ruleContext,
            elementPath: pathOf(hit.at),
            contextPath: contextPathOf(hit.context),
            draft: !signed && isSignatureOnly({ kind: 'rule', message: hit.message, test: hit.assert.test }),
            kind: 'rule',
            rule: hit.assert.fromRule,
            test: hit.assert.test,
          });
        }
        for (const u of result.unchecked) {
          findings.push({ ...startOf(u.at), severity: 'info', source: rulesSource, message: `${UNCHECKED_NOTE} ${u.test}`, ruleContext: u.ruleContext, elementPath: pathOf(u.at), contextPath: pathOf(u.at), draft: false, kind: 'unchecked', test: u.test });
        }
      }
      findings.sort((a, b) => a.line - b.line || a.column - b.column);
      return { documentType: type, findings };
    },
  };
}

/** The note a CreditNote (e-Müstahsil receipt) gets: GİB's e-Fatura package has no rules for it. */
export const CREDIT_NOTE_NOTE = "GİB's e-Fatura rule package has no Schematron rules for e-Müstahsil receipts (CreditNote); only GİB's XSD is applied.";
/** Prefixes the test of an assert this engine cannot evaluate. */
export const UNCHECKED_NOTE = 'Not checked here (this XPath cannot be evaluated by the engine):';

/** Whether the document carries an XML signature anywhere (an envelope's documents included). */
function hasSignature(root: slimdom.Element): boolean {
  return elementsInOrder(root).some((el) => el.localName === 'Signature' && el.namespaceURI === 'http://www.w3.org/2000/09/xmldsig#');
}

/** An element's start tag, 1-based (1:1 when the parser gave no position). */
function startOf(el: slimdom.Element): { line: number; column: number } {
  const pos = positionOf(el);
  return { line: pos?.line ?? 1, column: pos?.column ?? 1 };
}

function xmlError(e: unknown): GibFinding {
  const message = String((e as Error)?.message ?? e).split('\n')[0];
  // saxes (under slimdom-sax-parser) starts its messages with "line:column: ".
  const m = /^(\d+):(\d+):/.exec(message) ?? /line (\d+)(?:,? (?:column|col) (\d+))?/i.exec(message);
  return { line: m ? Number(m[1]) : 1, column: m?.[2] ? Number(m[2]) : 1, severity: 'error', source: 'XML', message, ruleContext: '', elementPath: '', contextPath: '', draft: false, kind: 'xml' };
}

function contextPathOf(node: slimdom.Node): string {
  if (node.nodeType === 2) return `${pathOf((node as slimdom.Attr).ownerElement!)}/@${(node as slimdom.Attr).nodeName}`;
  return pathOf(node as slimdom.Element);
}

/** /inv:Invoice/cac:InvoiceLine[2]/cbc:Note: names as written, an index where a name repeats. */
export function pathOf(el: slimdom.Element): string {
  const parts: string[] = [];
  let node: slimdom.Element | null = el;
  while (node) {
    const parent: slimdom.Node | null = node.parentNode;
    let part = node.nodeName;
    if (parent && parent.nodeType === 1) {
      const same = (parent as slimdom.Element).children.filter((c) => c.nodeName === node!.nodeName);
      if (same.length > 1) part += `[${same.indexOf(node) + 1}]`;
    }
    parts.unshift(part);
    node = parent && parent.nodeType === 1 ? (parent as slimdom.Element) : null;
  }
  return '/' + parts.join('/');
}
