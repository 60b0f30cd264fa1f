// Large UBL-TR documents for the scanner benchmark, grown from the fixtures of test/fixtures/ubl/: the
// fixture's lines are replaced by `lines` generated ones (each with notes, references, a discount, a
// tax subtotal and item identifications, as integrators write them), and its embedded attachment's
// base64 is grown until the text reaches `targetChars`. The parties, and so the findings, stay the
// fixture's; the signature block and line endings too.
import * as fs from 'node:fs';

export interface LargeUblOptions {
  /** Local name of the line element: InvoiceLine, DespatchLine. */
  line: 'InvoiceLine' | 'DespatchLine';
  /** How many lines; 0: as many as fit in `targetChars` (the attachment keeps the fixture's size). */
  lines: number;
  targetChars: number;
}

function invoiceLine(n: number, eol: string): string {
  const amount = (100 + (n % 900)).toFixed(2);
  return [
    '  <cac:InvoiceLine>',
    `    <cbc:ID>${n}</cbc:ID>`,
    `    <cbc:Note>Sipariş satırı ${n}: teslimat haftası ${(n % 52) + 1}, depo D-${n % 97}, raf ${n % 13}-${n % 7}.</cbc:Note>`,
    `    <cbc:InvoicedQuantity unitCode="C62">${(n % 50) + 1}</cbc:InvoicedQuantity>`,
    `    <cbc:LineExtensionAmount currencyID="TRY">${amount}</cbc:LineExtensionAmount>`,
    `    <cac:OrderLineReference><cbc:LineID>${n}</cbc:LineID></cac:OrderLineReference>`,
    `    <cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:MultiplierFactorNumeric>0.05</cbc:MultiplierFactorNumeric><cbc:Amount currencyID="TRY">5.00</cbc:Amount><cbc:BaseAmount currencyID="TRY">${amount}</cbc:BaseAmount></cac:AllowanceCharge>`,
    '    <cac:TaxTotal>',
    '      <cbc:TaxAmount currencyID="TRY">20.00</cbc:TaxAmount>',
    '      <cac:TaxSubtotal>',
    `        <cbc:TaxableAmount currencyID="TRY">${amount}</cbc:TaxableAmount>`,
    '        <cbc:TaxAmount currencyID="TRY">20.00</cbc:TaxAmount>',
    '        <cbc:Percent>20</cbc:Percent>',
    '        <cac:TaxCategory><cac:TaxScheme><cbc:Name>KDV</cbc:Name><cbc:TaxTypeCode>0015</cbc:TaxTypeCode></cac:TaxScheme></cac:TaxCategory>',
    '      </cac:TaxSubtotal>',
    '    </cac:TaxTotal>',
    '    <cac:Item>',
    `      <cbc:Description>Rulmanlı yatak, çelik kafes, ${(n % 40) + 10} mm iç çap; paketleme: 10 adet/kutu.</cbc:Description>`,
    `      <cbc:Name>Rulman ${6200 + (n % 100)} (parça no ${7000000000 + n})</cbc:Name>`,
    '      <cbc:BrandName>Örnek</cbc:BrandName>',
    `      <cbc:ModelName>RM-${n}</cbc:ModelName>`,
    `      <cac:BuyersItemIdentification><cbc:ID>ALC-${n}</cbc:ID></cac:BuyersItemIdentification>`,
    `      <cac:SellersItemIdentification><cbc:ID>STK-${String(n).padStart(6, '0')}</cbc:ID></cac:SellersItemIdentification>`,
    `      <cac:ManufacturersItemIdentification><cbc:ID>URT-${n}</cbc:ID></cac:ManufacturersItemIdentification>`,
    '      <cac:CommodityClassification><cbc:ItemClassificationCode>8482100010</cbc:ItemClassificationCode></cac:CommodityClassification>',
    '    </cac:Item>',
    `    <cac:Price><cbc:PriceAmount currencyID="TRY">${amount}</cbc:PriceAmount></cac:Price>`,
    '  </cac:InvoiceLine>',
    '',
  ].join(eol);
}

function despatchLine(n: number, eol: string): string {
  return [
    '  <cac:DespatchLine>',
    `    <cbc:ID>${n}</cbc:ID>`,
    `    <cbc:Note>Palet ${(n % 40) + 1}, koli ${n}.</cbc:Note>`,
    `    <cbc:DeliveredQuantity unitCode="C62">${(n % 50) + 1}</cbc:DeliveredQuantity>`,
    `    <cac:OrderLineReference><cbc:LineID>${n}</cbc:LineID></cac:OrderLineReference>`,
    '    <cac:Item>',
    `      <cbc:Description>Çelik profil, galvaniz kaplı, ${(n % 6) + 1} m boy.</cbc:Description>`,
    `      <cbc:Name>Çelik profil 40x40 (parça no ${7000000000 + n})</cbc:Name>`,
    `      <cac:SellersItemIdentification><cbc:ID>STK-${String(n).padStart(6, '0')}</cbc:ID></cac:SellersItemIdentification>`,
    '    </cac:Item>',
    '  </cac:DespatchLine>',
    '',
  ].join(eol);
}

export function largeUbl(fixturePath: string, options: LargeUblOptions): string {
  const text = fs.readFileSync(fixturePath, 'utf8');
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const open = `  <cac:${options.line}>`;
  const close = `</cac:${options.line}>${eol}`;
  const first = text.indexOf(open);
  const last = text.lastIndexOf(close);
  if (first < 0 || last < 0) throw new Error(`${fixturePath} has no ${options.line}`);
  const make = options.line === 'InvoiceLine' ? invoiceLine : despatchLine;
  const parts: string[] = [];
  let size = text.length - (last + close.length - first);
  for (let n = 1; options.lines > 0 ? n <= options.lines : size + make(n, eol).length <= options.targetChars; n++) {
    const line = make(n, eol);
    parts.push(line);
    size += line.length;
  }
  let out = text.slice(0, first) + parts.join('') + text.slice(last + close.length);
  const missing = options.targetChars - out.length;
  if (missing > 0) {
    // The attachment grows (76 characters a line, as base64 encoders wrap).
    const marker = '</cbc:EmbeddedDocumentBinaryObject>';
    const at = out.indexOf(marker);
    if (at < 0) throw new Error(`${fixturePath} has no embedded attachment to grow`);
    const row = 'UEsDBBQABgAIAAAAIQBi7p1oXgEAAJAEAAATAAgCW0NvbnRlbnRfVHlwZXNdLnhtbCCiBAIooAAAAAAA'.slice(0, 76) + eol;
    const filler = row.repeat(Math.floor(missing / row.length));
    const lineStart = out.lastIndexOf(eol, at) + eol.length;
    out = out.slice(0, lineStart) + filler + out.slice(lineStart);
  }
  return out;
}
