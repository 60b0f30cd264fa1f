// Checks a template file before it is sent as Base64String: an XSLT (or XML) file of reasonable size.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { UserFacingError } from '../../shell/errorMessages';

/** Not stated by the API; e-invoice XSLT templates are typically well under 1 MB. */
export const MAX_TEMPLATE_BYTES = 5 * 1024 * 1024;
const EXTENSIONS = new Set(['.xslt', '.xsl', '.xml']);

/** Reads the file and returns it as base64, or throws a message naming what is wrong with it. */
export async function readTemplateFile(file: string): Promise<{ base64: string; bytes: number }> {
  const name = path.basename(file);
  if (!EXTENSIONS.has(path.extname(file).toLowerCase())) {
    throw new UserFacingError(vscode.l10n.t('{0} is not a template: choose an .xslt, .xsl or .xml file.', name));
  }
  const stat = await fs.stat(file);
  if (stat.size === 0) throw new UserFacingError(vscode.l10n.t('{0} is empty.', name));
  if (stat.size > MAX_TEMPLATE_BYTES) {
    throw new UserFacingError(vscode.l10n.t('{0} is {1} MB; a template may be at most {2} MB.', name, (stat.size / 1024 / 1024).toFixed(1), MAX_TEMPLATE_BYTES / 1024 / 1024));
  }
  const bytes = await fs.readFile(file);
  const head = bytes.subarray(0, 4096).toString('utf8').replace(/^\uFEFF/, '').trimStart();
  if (!head.startsWith('<') || !/<(\?xml|xsl:stylesheet|xsl:transform|[\w.-]+)/.test(head)) {
    throw new UserFacingError(vscode.l10n.t('{0} does not contain XML or XSLT.', name));
  }
  return { base64: bytes.toString('base64'), bytes: bytes.length };
}
