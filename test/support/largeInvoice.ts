// A large UBL-TR invoice for the diagnostics benchmark: the fixture with its InvoiceLine repeated
// until the text reaches the wanted size (the parties, and so the findings, stay those of the fixture).
import * as fs from 'node:fs';
import * as path from 'node:path';

export function largeInvoice(fixturePath: string, targetBytes: number): string {
  const text = fs.readFileSync(fixturePath, 'utf8');
  const lineStart = text.indexOf('  <cac:InvoiceLine>');
  const lineEnd = text.indexOf('</cac:InvoiceLine>', lineStart) + '</cac:InvoiceLine>\n'.length;
  const closing = text.lastIndexOf('</Invoice>');
  if (lineStart < 0 || closing < 0) throw new Error(`${path.basename(fixturePath)} has no InvoiceLine`);
  const line = text.slice(lineStart, lineEnd);
  const parts = [text.slice(0, closing)];
  let size = Buffer.byteLength(parts[0]);
  for (let n = 3; size < targetBytes; n++) {
    const next = line.replace('<cbc:ID>1</cbc:ID>', `<cbc:ID>${n}</cbc:ID>`);
    parts.push(next);
    size += Buffer.byteLength(next);
  }
  parts.push(text.slice(closing));
  return parts.join('');
}
