// The ZIP layer of the workbook reader and writer: jszip (a workbook is read and written whole), loaded
// on first use from dist/vendor/jszip.js (esbuild.js, lazyVendor), never at activation. Also the one
// error type of the workbook modules, with a code the extension words in the user's language.
import type JSZipType from 'jszip';

export type XlsxProblem = 'encrypted' | 'notZip' | 'notWorkbook' | 'tooLarge' | 'noSheet';

const MESSAGES: Record<XlsxProblem, string> = {
  encrypted: 'The workbook is password-protected (or an Excel 97-2003 .xls file): open it in Excel, remove the password and save it as an .xlsx workbook.',
  notZip: 'The file is not a readable .xlsx workbook (it is damaged or of another kind).',
  notWorkbook: 'The file is a ZIP archive but not an .xlsx workbook (no xl/workbook.xml).',
  tooLarge: 'The workbook is too large to read (more than 200 MB unpacked).',
  noSheet: 'The workbook has no worksheet to read.',
};

export class XlsxError extends Error {
  constructor(
    readonly problem: XlsxProblem,
    readonly detail?: string,
  ) {
    super(MESSAGES[problem] + (detail ? ` (${detail})` : ''));
    this.name = 'XlsxError';
  }
}

let jszipPromise: Promise<typeof JSZipType> | undefined;

/**
 * jszip from dist/vendor/jszip.js. That file is CommonJS: imported from the ES module build, the
 * namespace's `default` is its exports object, which holds the class as `default` again.
 */
export function loadJsZip(): Promise<typeof JSZipType> {
  jszipPromise ??= import('jszip').then((m) => {
    const exported = m.default as unknown as typeof JSZipType | { default: typeof JSZipType };
    return typeof exported === 'function' ? exported : exported.default;
  });
  return jszipPromise;
}

/** An OLE compound file (D0 CF 11 E0 A1 B1 1A E1): what Excel writes for an encrypted workbook, and for .xls. */
const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** Unpacked bytes a workbook may hold: far beyond any customer list, short of a ZIP bomb. */
export const MAX_UNPACKED_BYTES = 200 * 1024 * 1024;

/** The workbook's ZIP, or an XlsxError saying why it cannot be read. */
export async function openWorkbookZip(bytes: Uint8Array): Promise<JSZipType> {
  if (OLE_SIGNATURE.every((b, i) => bytes[i] === b)) throw new XlsxError('encrypted');
  const JSZip = await loadJsZip();
  let zip: JSZipType;
  try {
    zip = await JSZip.loadAsync(bytes, { checkCRC32: true });
  } catch (error) {
    throw new XlsxError('notZip', error instanceof Error ? error.message : String(error));
  }
  let unpacked = 0;
  zip.forEach((_, file) => {
    // jszip keeps the sizes the central directory declares; an entry that inflates beyond them fails its CRC.
    unpacked += (file as unknown as { _data?: { uncompressedSize?: number } })._data?.uncompressedSize ?? 0;
  });
  if (unpacked > MAX_UNPACKED_BYTES) throw new XlsxError('tooLarge');
  return zip;
}

/** The text of one entry, or undefined when the archive has none by that name. */
export async function entryText(zip: JSZipType, name: string): Promise<string | undefined> {
  const file = zip.file(name) ?? zip.file(Object.keys(zip.files).find((n) => n.toLowerCase() === name.toLowerCase()) ?? '\0');
  if (!file) return undefined;
  try {
    return await file.async('string');
  } catch (error) {
    throw new XlsxError('notZip', `${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
