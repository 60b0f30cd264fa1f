// GİB's XSD (UBL-TR1.2.1_Paketi/xsdrt, the UBL 2.1 schemas as GİB ships them) by libxml2-wasm: the
// schema of a document type compiled once per package and kept; each validation parses the text
// with libxml2 (its own line numbers) and collects every error libxml2 reports. The schema's
// imports (../common/*.xsd) are served from memory through libxml2's input callbacks, never from
// disk. Plain Node, no vscode.

import * as path from 'node:path';
import { findPackageFile } from '../files/packageFile';
import { pathToFileURL } from 'node:url';
import type * as Libxml2 from 'libxml2-wasm';
import { GibSourceError, type GibFileSet } from './rulesSource';

export const XSD_DOCUMENT_TYPES = ['Invoice', 'DespatchAdvice', 'ReceiptAdvice', 'ApplicationResponse', 'CreditNote'] as const;
export type XsdDocumentType = (typeof XSD_DOCUMENT_TYPES)[number];

export interface XsdError {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

type Lib = typeof Libxml2;
let lib: Promise<Lib> | undefined;

/**
 * libxml2-wasm is an ES module whose modules import each other in a circle and wait at top level
 * for their WebAssembly; bundled by esbuild, those waits deadlock. So it is never bundled: the
 * build copies its lib/ to dist/vendor/libxml2-wasm/ (esbuild.js), and it is imported from there
 * (or from node_modules, for the tests' bundles) by a real import(), which neither the CommonJS
 * bundles' require() nor esbuild rewrites.
 */
const importModule = new Function('url', 'return import(url)') as (url: string) => Promise<Lib>;

function loadLib(): Promise<Lib> {
  if (lib) return lib;
  const found = findPackageFile(import.meta.url, path.join('vendor', 'libxml2-wasm', 'index.mjs'), path.join('node_modules', 'libxml2-wasm', 'lib', 'index.mjs'));
  if (!found) throw new Error('libxml2-wasm is missing (neither dist/vendor/libxml2-wasm nor node_modules has it)');
  return (lib = importModule(pathToFileURL(found).href));
}

const PREFIX = '/__gib_xsd__/';
/** Every file set's files by virtual path; one input provider for all of them. */
const virtualFiles = new Map<string, Uint8Array>();
const open = new Map<number, { data: Uint8Array; at: number }>();
let nextFd = 1;
let providerRegistered = false;
let nextSetId = 0;

function registerProvider(l: Lib): void {
  if (providerRegistered) return;
  providerRegistered = true;
  l.xmlRegisterInputProvider({
    match: (name) => name.startsWith(PREFIX) || name.startsWith('file://' + PREFIX),
    open: (name) => {
      const data = virtualFiles.get(name.replace(/^file:\/\//, ''));
      if (!data) return undefined;
      const fd = nextFd++;
      open.set(fd, { data, at: 0 });
      return fd;
    },
    read: (fd, buf) => {
      const f = open.get(fd as unknown as number);
      if (!f) return -1;
      const n = Math.min(buf.byteLength, f.data.length - f.at);
      buf.set(f.data.subarray(f.at, f.at + n));
      f.at += n;
      return n;
    },
    close: (fd) => open.delete(fd as unknown as number),
  });
}

/** The schemas of one package, each document type's compiled on first use and kept. */
export class GibSchemas {
  private readonly compiled = new Map<XsdDocumentType, Promise<Libxml2.XsdValidator>>();
  private readonly root: string;

  constructor(private readonly set: GibFileSet) {
    this.root = `${PREFIX}${nextSetId++}/`;
    for (const [name, content] of set.files) if (name.endsWith('.xsd')) virtualFiles.set(this.root + name, new Uint8Array(content));
    // Start importing libxml2 now: its WebAssembly compiles off this thread while the caller goes on
    // (the engine reads and prepares GİB's Schematron meanwhile). A failure shows at the first use.
    try {
      loadLib().catch(() => undefined);
    } catch {
      // libxml2-wasm is missing: said at the first validation
    }
  }

  /** The path of `maindoc/UBL-<type>-2.1.xsd` inside the set, or a GibSourceError. */
  private mainSchema(type: XsdDocumentType): string {
    const suffix = `maindoc/UBL-${type}-2.1.xsd`;
    const name = [...this.set.files.keys()].find((n) => n.endsWith(suffix));
    if (!name) throw new GibSourceError(`${this.set.origin} has no ${suffix} (is it GİB's UBL-TR1.2.1_Paketi?)`);
    return this.root + name;
  }

  private validator(type: XsdDocumentType): Promise<Libxml2.XsdValidator> {
    let v = this.compiled.get(type);
    if (!v) {
      v = (async () => {
        const l = await loadLib();
        registerProvider(l);
        const url = this.mainSchema(type);
        const doc = l.XmlDocument.fromBuffer(virtualFiles.get(url)!, { url });
        try {
          return l.XsdValidator.fromDoc(doc);
        } finally {
          doc.dispose();
        }
      })();
      this.compiled.set(type, v);
      v.catch(() => this.compiled.delete(type));
    }
    return v;
  }

  /** Compiles the type's schema ahead of the first document (e.g. while the editor opens). */
  async prepare(type: XsdDocumentType): Promise<void> {
    await this.validator(type);
  }

  /** Every XSD error of the document, in libxml2's words and lines. */
  async validate(type: XsdDocumentType, text: string): Promise<XsdError[]> {
    const validator = await this.validator(type);
    const l = await loadLib();
    let doc: Libxml2.XmlDocument;
    try {
      doc = l.XmlDocument.fromString(text);
    } catch (e) {
      return detailsOf(e);
    }
    try {
      validator.validate(doc);
      return [];
    } catch (e) {
      return detailsOf(e);
    } finally {
      doc.dispose();
    }
  }
}

function detailsOf(e: unknown): XsdError[] {
  const details = (e as { details?: { message: string; line: number; col?: number; column?: number }[] })?.details;
  if (!details?.length) return [{ line: 1, column: 1, message: String((e as Error)?.message ?? e).trim() }];
  return details.map((d) => ({ line: d.line || 1, column: (d.col ?? d.column) || 1, message: d.message.trim() }));
}
