#!/usr/bin/env node
// Writes the built-in sample documents of the preview (media/samples/*.xml): one UBL-TR document per
// invoice profile and per other document type, each with media/samples/sample-design.xslt embedded,
// and amounts computed here so that every total adds up. Run it after changing the design or a sample:
//   node scripts/preview-samples.js
// test/unit/preview/model/readDocument.test.ts checks that the files are what this script writes.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const samplesDir = path.join(root, 'media', 'samples');

const NS = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  DespatchAdvice: 'urn:oasis:names:specification:ubl:schema:xsd:DespatchAdvice-2',
  ReceiptAdvice: 'urn:oasis:names:specification:ubl:schema:xsd:ReceiptAdvice-2',
  ApplicationResponse: 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2',
};
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** Amounts in kuruş (integers), written with two decimals. */
const money = (kurus) => (kurus / 100).toFixed(2);
const amount = (tag, kurus, currency) => `<cbc:${tag} currencyID="${currency}">${money(kurus)}</cbc:${tag}>`;

const SUPPLIER = { vkn: '7312058406', name: 'Örnek Yazılım ve Danışmanlık A.Ş.', street: 'Büyükdere Cad. No:100', district: 'Şişli', city: 'İstanbul', taxOffice: 'Zincirlikuyu', mersis: '0731205840600015' };
const CUSTOMER = { vkn: '3840192636', name: 'Anadolu Gıda Sanayi ve Ticaret A.Ş.', street: 'Cumhuriyet Cad. No:1', district: 'Çankaya', city: 'Ankara', taxOffice: 'Çankaya' };
const PERSON = { tckn: '25849173616', first: 'Ayşe', family: 'Yılmaz', street: 'Lale Sok. No:7', district: 'Konak', city: 'İzmir' };
const CUSTOMS = { vkn: '1460415308', name: 'Gümrük ve Ticaret Bakanlığı Gümrükler Genel Müdürlüğü Bilgi İşlem Dairesi Başkanlığı', street: 'Üniversiteler Mah. Dumlupınar Bulvarı No:151', district: 'Çankaya', city: 'Ankara', taxOffice: 'Ulus' };

function party(p, indent = '    ') {
  const ids = [];
  if (p.vkn) ids.push(`<cac:PartyIdentification><cbc:ID schemeID="VKN">${p.vkn}</cbc:ID></cac:PartyIdentification>`);
  if (p.tckn) ids.push(`<cac:PartyIdentification><cbc:ID schemeID="TCKN">${p.tckn}</cbc:ID></cac:PartyIdentification>`);
  if (p.mersis) ids.push(`<cac:PartyIdentification><cbc:ID schemeID="MERSISNO">${p.mersis}</cbc:ID></cac:PartyIdentification>`);
  if (p.partyType) ids.push(`<cac:PartyIdentification><cbc:ID schemeID="PARTYTYPE">${p.partyType}</cbc:ID></cac:PartyIdentification>`);
  const lines = [
    '<cac:Party>',
    ...ids.map((l) => `  ${l}`),
    ...(p.name ? [`  <cac:PartyName><cbc:Name>${esc(p.name)}</cbc:Name></cac:PartyName>`] : []),
    '  <cac:PostalAddress>',
    `    <cbc:StreetName>${esc(p.street)}</cbc:StreetName>`,
    `    <cbc:CitySubdivisionName>${esc(p.district)}</cbc:CitySubdivisionName>`,
    `    <cbc:CityName>${esc(p.city)}</cbc:CityName>`,
    `    <cac:Country><cbc:Name>${esc(p.country ?? 'Türkiye')}</cbc:Name></cac:Country>`,
    '  </cac:PostalAddress>',
    ...(p.taxOffice ? [`  <cac:PartyTaxScheme><cac:TaxScheme><cbc:Name>${esc(p.taxOffice)}</cbc:Name></cac:TaxScheme></cac:PartyTaxScheme>`] : []),
    ...(p.first ? [`  <cac:Person><cbc:FirstName>${esc(p.first)}</cbc:FirstName><cbc:FamilyName>${esc(p.family)}</cbc:FamilyName></cac:Person>`] : []),
    '</cac:Party>',
  ];
  return lines.map((l) => indent + l).join('\n');
}

function designReference(design, id) {
  return [
    '  <cac:AdditionalDocumentReference>',
    `    <cbc:ID>${id}</cbc:ID>`,
    '    <cbc:IssueDate>2026-11-20</cbc:IssueDate>',
    '    <cbc:DocumentType>XSLT</cbc:DocumentType>',
    '    <cac:Attachment>',
    `      <cbc:EmbeddedDocumentBinaryObject characterSetCode="UTF-8" encodingCode="Base64" filename="sample-design.xslt" mimeCode="application/xml">${Buffer.from(design, 'utf8').toString('base64')}</cbc:EmbeddedDocumentBinaryObject>`,
    '    </cac:Attachment>',
    '  </cac:AdditionalDocumentReference>',
  ].join('\n');
}

function header(kind, { profile, id, uuid, typeCode, currency, notes = [], lineCount, customization = 'TR1.2' }) {
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<${kind} xmlns="${NS[kind]}" xmlns:cac="${CAC}" xmlns:cbc="${CBC}">`,
    '  <cbc:UBLVersionID>2.1</cbc:UBLVersionID>',
    `  <cbc:CustomizationID>${customization}</cbc:CustomizationID>`,
    `  <cbc:ProfileID>${profile}</cbc:ProfileID>`,
    `  <cbc:ID>${id}</cbc:ID>`,
    '  <cbc:CopyIndicator>false</cbc:CopyIndicator>',
    `  <cbc:UUID>${uuid}</cbc:UUID>`,
    '  <cbc:IssueDate>2026-11-20</cbc:IssueDate>',
    '  <cbc:IssueTime>14:05:00</cbc:IssueTime>',
  ];
  if (typeCode) out.push(`  <cbc:${typeCode[0]}>${typeCode[1]}</cbc:${typeCode[0]}>`);
  for (const n of notes) out.push(`  <cbc:Note>${esc(n)}</cbc:Note>`);
  if (currency) out.push(`  <cbc:DocumentCurrencyCode>${currency}</cbc:DocumentCurrencyCode>`);
  if (lineCount !== undefined) out.push(`  <cbc:LineCountNumeric>${lineCount}</cbc:LineCountNumeric>`);
  return out;
}

/**
 * An invoice (or e-Müstahsil credit note) whose amounts are computed from its lines: each line is
 * { name, quantity, unit, price (kuruş), vat (percent), withholding? { code, name, percent of VAT | of amount } }.
 */
function invoice(kind, spec) {
  const cur = spec.currency ?? 'TRY';
  const lineTag = kind === 'CreditNote' ? 'CreditNoteLine' : 'InvoiceLine';
  const qtyTag = kind === 'CreditNote' ? 'CreditedQuantity' : 'InvoicedQuantity';
  const lines = spec.lines.map((l, i) => {
    const net = Math.round(l.quantity * l.price);
    const rate = l.vat ?? 0;
    const vat = Math.round((net * rate) / 100);
    const withheld = l.withholding ? Math.round(((l.withholding.ofVat ? vat : net) * l.withholding.percent) / 100) : 0;
    return { ...l, n: i + 1, net, rate, vat, withheld };
  });
  const totalNet = lines.reduce((s, l) => s + l.net, 0);
  const byRate = new Map();
  for (const l of lines) {
    const r = byRate.get(l.rate) ?? { taxable: 0, tax: 0, exemption: l.exemption };
    r.taxable += l.net;
    r.tax += l.vat;
    byRate.set(l.rate, r);
  }
  const totalVat = lines.reduce((s, l) => s + l.vat, 0);
  const withholdings = lines.filter((l) => l.withholding);
  const totalWithheld = withholdings.reduce((s, l) => s + l.withheld, 0);
  const out = header(kind, { ...spec, currency: cur, lineCount: lines.length });
  if (spec.design) out.push(designReference(spec.design, `${spec.id}-XSLT`));
  out.push('  <cac:AccountingSupplierParty>', party(spec.supplier ?? SUPPLIER), '  </cac:AccountingSupplierParty>');
  out.push('  <cac:AccountingCustomerParty>', party(spec.customer ?? CUSTOMER), '  </cac:AccountingCustomerParty>');
  if (spec.buyer) out.push('  <cac:BuyerCustomerParty>', party(spec.buyer), '  </cac:BuyerCustomerParty>');
  if (spec.vatless !== true) {
    out.push('  <cac:TaxTotal>', `    ${amount('TaxAmount', totalVat, cur)}`);
    for (const [rate, r] of byRate) {
      out.push(
        '    <cac:TaxSubtotal>',
        `      ${amount('TaxableAmount', r.taxable, cur)}`,
        `      ${amount('TaxAmount', r.tax, cur)}`,
        `      <cbc:Percent>${rate}</cbc:Percent>`,
        '      <cac:TaxCategory>',
        ...(r.exemption ? [`        <cbc:TaxExemptionReasonCode>${r.exemption[0]}</cbc:TaxExemptionReasonCode>`, `        <cbc:TaxExemptionReason>${esc(r.exemption[1])}</cbc:TaxExemptionReason>`] : []),
        '        <cac:TaxScheme><cbc:Name>KDV</cbc:Name><cbc:TaxTypeCode>0015</cbc:TaxTypeCode></cac:TaxScheme>',
        '      </cac:TaxCategory>',
        '    </cac:TaxSubtotal>',
      );
    }
    out.push('  </cac:TaxTotal>');
  }
  if (withholdings.length > 0) {
    out.push('  <cac:WithholdingTaxTotal>', `    ${amount('TaxAmount', totalWithheld, cur)}`);
    for (const l of withholdings) {
      out.push(
        '    <cac:TaxSubtotal>',
        `      ${amount('TaxableAmount', l.withholding.ofVat ? l.vat : l.net, cur)}`,
        `      ${amount('TaxAmount', l.withheld, cur)}`,
        `      <cbc:Percent>${l.withholding.percent}</cbc:Percent>`,
        `      <cac:TaxCategory><cac:TaxScheme><cbc:Name>${esc(l.withholding.name)}</cbc:Name><cbc:TaxTypeCode>${l.withholding.code}</cbc:TaxTypeCode></cac:TaxScheme></cac:TaxCategory>`,
        '    </cac:TaxSubtotal>',
      );
    }
    out.push('  </cac:WithholdingTaxTotal>');
  }
  out.push(
    '  <cac:LegalMonetaryTotal>',
    `    ${amount('LineExtensionAmount', totalNet, cur)}`,
    `    ${amount('TaxExclusiveAmount', totalNet, cur)}`,
    `    ${amount('TaxInclusiveAmount', totalNet + totalVat, cur)}`,
    `    ${amount('AllowanceTotalAmount', 0, cur)}`,
    `    ${amount('PayableAmount', totalNet + totalVat - totalWithheld, cur)}`,
    '  </cac:LegalMonetaryTotal>',
  );
  for (const l of lines) {
    out.push(
      `  <cac:${lineTag}>`,
      `    <cbc:ID>${l.n}</cbc:ID>`,
      `    <cbc:${qtyTag} unitCode="${l.unit}">${l.quantity}</cbc:${qtyTag}>`,
      `    ${amount('LineExtensionAmount', l.net, cur)}`,
    );
    if (spec.vatless !== true) {
      out.push(
        '    <cac:TaxTotal>',
        `      ${amount('TaxAmount', l.vat, cur)}`,
        `      <cac:TaxSubtotal>${amount('TaxableAmount', l.net, cur)}${amount('TaxAmount', l.vat, cur)}<cbc:Percent>${l.rate}</cbc:Percent><cac:TaxCategory><cac:TaxScheme><cbc:Name>KDV</cbc:Name><cbc:TaxTypeCode>0015</cbc:TaxTypeCode></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal>`,
        '    </cac:TaxTotal>',
      );
    }
    if (l.withholding) {
      out.push(
        '    <cac:WithholdingTaxTotal>',
        `      ${amount('TaxAmount', l.withheld, cur)}`,
        `      <cac:TaxSubtotal>${amount('TaxableAmount', l.withholding.ofVat ? l.vat : l.net, cur)}${amount('TaxAmount', l.withheld, cur)}<cbc:Percent>${l.withholding.percent}</cbc:Percent><cac:TaxCategory><cac:TaxScheme><cbc:Name>${esc(l.withholding.name)}</cbc:Name><cbc:TaxTypeCode>${l.withholding.code}</cbc:TaxTypeCode></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal>`,
        '    </cac:WithholdingTaxTotal>',
      );
    }
    out.push(`    <cac:Item><cbc:Name>${esc(l.name)}</cbc:Name></cac:Item>`, `    <cac:Price>${amount('PriceAmount', l.price, cur)}</cac:Price>`, `  </cac:${lineTag}>`);
  }
  out.push(`</${kind}>`, '');
  return out.join('\n');
}

function despatch(design) {
  const out = header('DespatchAdvice', { profile: 'TEMELIRSALIYE', id: 'IRS2026000000017', uuid: '8a1d5c2e-4f3b-4c7a-9e61-0b2d7f9c3a45', typeCode: ['DespatchAdviceTypeCode', 'SEVK'], notes: ['Teslimat: rampa 3.'], lineCount: 2 });
  out.push(designReference(design, 'IRS2026000000017-XSLT'));
  out.push('  <cac:DespatchSupplierParty>', party(SUPPLIER), '  </cac:DespatchSupplierParty>');
  out.push('  <cac:DeliveryCustomerParty>', party(CUSTOMER), '  </cac:DeliveryCustomerParty>');
  out.push(
    '  <cac:Shipment>',
    '    <cbc:ID>1</cbc:ID>',
    '    <cac:GoodsItem><cbc:ValueAmount currencyID="TRY">18000.00</cbc:ValueAmount></cac:GoodsItem>',
    '    <cac:ShipmentStage>',
    '      <cac:TransportMeans><cac:RoadTransport><cbc:LicensePlateID schemeID="PLAKA">34ABC123</cbc:LicensePlateID></cac:RoadTransport></cac:TransportMeans>',
    `      <cac:DriverPerson><cbc:FirstName>Mehmet</cbc:FirstName><cbc:FamilyName>Demir</cbc:FamilyName><cbc:Title>Şoför</cbc:Title><cbc:NationalityID>31604728922</cbc:NationalityID></cac:DriverPerson>`,
    '    </cac:ShipmentStage>',
    '    <cac:Delivery>',
    '      <cac:CarrierParty>',
    '        <cac:PartyIdentification><cbc:ID schemeID="VKN">6023184751</cbc:ID></cac:PartyIdentification>',
    '        <cac:PartyName><cbc:Name>Hızlı Lojistik Taşımacılık Ltd. Şti.</cbc:Name></cac:PartyName>',
    '        <cac:PostalAddress><cbc:CityName>Kocaeli</cbc:CityName><cac:Country><cbc:Name>Türkiye</cbc:Name></cac:Country></cac:PostalAddress>',
    '      </cac:CarrierParty>',
    '      <cac:Despatch><cbc:ActualDespatchDate>2026-11-20</cbc:ActualDespatchDate><cbc:ActualDespatchTime>09:30:00</cbc:ActualDespatchTime></cac:Despatch>',
    '    </cac:Delivery>',
    '  </cac:Shipment>',
  );
  const items = [
    ['Ayçiçek yağı 5 L', 120, 'C62'],
    ['Un 25 kg', 40, 'C62'],
  ];
  items.forEach(([name, qty, unit], i) => {
    out.push(
      '  <cac:DespatchLine>',
      `    <cbc:ID>${i + 1}</cbc:ID>`,
      `    <cbc:DeliveredQuantity unitCode="${unit}">${qty}</cbc:DeliveredQuantity>`,
      `    <cac:OrderLineReference><cbc:LineID>${i + 1}</cbc:LineID></cac:OrderLineReference>`,
      `    <cac:Item><cbc:Name>${esc(name)}</cbc:Name></cac:Item>`,
      '  </cac:DespatchLine>',
    );
  });
  out.push('</DespatchAdvice>', '');
  return out.join('\n');
}

function receipt() {
  const out = header('ReceiptAdvice', { profile: 'TEMELIRSALIYE', id: 'IYT2026000000003', uuid: 'c4e2b7a9-1d3f-4a8e-b5c6-7d9e0f1a2b3c', typeCode: ['ReceiptAdviceTypeCode', 'SEVK'], lineCount: 2 });
  out.push('  <cac:DespatchDocumentReference><cbc:ID>IRS2026000000017</cbc:ID><cbc:IssueDate>2026-11-20</cbc:IssueDate></cac:DespatchDocumentReference>');
  out.push('  <cac:DeliveryCustomerParty>', party(CUSTOMER), '  </cac:DeliveryCustomerParty>');
  out.push('  <cac:DespatchSupplierParty>', party(SUPPLIER), '  </cac:DespatchSupplierParty>');
  out.push('  <cac:Shipment><cbc:ID>1</cbc:ID></cac:Shipment>');
  out.push(
    '  <cac:ReceiptLine>',
    '    <cbc:ID>1</cbc:ID>',
    '    <cbc:ReceivedQuantity unitCode="C62">118</cbc:ReceivedQuantity>',
    '    <cbc:RejectedQuantity unitCode="C62">2</cbc:RejectedQuantity>',
    '    <cbc:RejectReason>Ambalaj hasarlı</cbc:RejectReason>',
    '    <cac:DespatchLineReference><cbc:LineID>1</cbc:LineID></cac:DespatchLineReference>',
    '    <cac:Item><cbc:Name>Ayçiçek yağı 5 L</cbc:Name></cac:Item>',
    '  </cac:ReceiptLine>',
    '  <cac:ReceiptLine>',
    '    <cbc:ID>2</cbc:ID>',
    '    <cbc:ReceivedQuantity unitCode="C62">40</cbc:ReceivedQuantity>',
    '    <cac:DespatchLineReference><cbc:LineID>2</cbc:LineID></cac:DespatchLineReference>',
    '    <cac:Item><cbc:Name>Un 25 kg</cbc:Name></cac:Item>',
    '  </cac:ReceiptLine>',
    '</ReceiptAdvice>',
    '',
  );
  return out.join('\n');
}

function applicationResponse() {
  const out = header('ApplicationResponse', { profile: 'TICARIFATURA', id: 'UYT2026000000001', uuid: 'e7f8a9b0-c1d2-4e3f-8a4b-5c6d7e8f9a0b', notes: ['Fatura kabul edilmiştir.'] });
  // SenderParty and ReceiverParty are parties themselves (UBL's PartyType): no cac:Party inside.
  const content = (p) => party(p, '  ').split('\n').slice(1, -1).join('\n');
  out.push('  <cac:SenderParty>', content(CUSTOMER), '  </cac:SenderParty>');
  out.push('  <cac:ReceiverParty>', content(SUPPLIER), '  </cac:ReceiverParty>');
  out.push(
    '  <cac:DocumentResponse>',
    '    <cac:Response><cbc:ReferenceID>ABC2026000000042</cbc:ReferenceID><cbc:ResponseCode>KABUL</cbc:ResponseCode><cbc:Description>Fatura kabul edildi.</cbc:Description></cac:Response>',
    '    <cac:DocumentReference><cbc:ID>ABC2026000000042</cbc:ID><cbc:IssueDate>2026-11-20</cbc:IssueDate><cbc:DocumentTypeCode>FATURA</cbc:DocumentTypeCode></cac:DocumentReference>',
    '  </cac:DocumentResponse>',
    '</ApplicationResponse>',
    '',
  );
  return out.join('\n');
}

/**
 * The samples: file name → text. Every real UBL-TR invoice carries its design; here three samples do
 * (an e-invoice, an e-archive invoice and a despatch advice, for "Preview Document"), the others leave
 * it out to keep the VSIX small: the studio renders them with the design being edited.
 */
function samples(design) {
  const kdv20 = (name, quantity, unit, price) => ({ name, quantity, unit, price, vat: 20 });
  return {
    'invoice-TEMELFATURA.xml': invoice('Invoice', {
      design,
      profile: 'TEMELFATURA',
      id: 'ORN2026000000101',
      uuid: '5b9f2c1e-7a4d-4e8b-9c3f-1a2b3c4d5e6f',
      typeCode: ['InvoiceTypeCode', 'SATIS'],
      notes: ['Ödeme vadesi 30 gündür.'],
      lines: [kdv20('Danışmanlık hizmeti (saat)', 10, 'HUR', 150000), kdv20('Yazılım lisansı', 1, 'C62', 500000)],
    }),
    'invoice-TICARIFATURA.xml': invoice('Invoice', {
      profile: 'TICARIFATURA',
      id: 'ORN2026000000102',
      uuid: '6c0a3d2f-8b5e-4f9c-8d40-2b3c4d5e6f70',
      typeCode: ['InvoiceTypeCode', 'SATIS'],
      lines: [kdv20('Ayçiçek yağı 5 L', 120, 'C62', 42550), { name: 'Un 25 kg', quantity: 40, unit: 'C62', price: 61000, vat: 1 }],
    }),
    'invoice-EARSIVFATURA.xml': invoice('Invoice', {
      design,
      profile: 'EARSIVFATURA',
      id: 'ORN2026000000103',
      uuid: '7d1b4e30-9c6f-4a0d-9e51-3c4d5e6f7081',
      typeCode: ['InvoiceTypeCode', 'SATIS'],
      customer: PERSON,
      notes: ['İnternet satışı.'],
      lines: [kdv20('Kablosuz kulaklık', 1, 'C62', 189990), kdv20('Kargo', 1, 'C62', 4990)],
    }),
    'invoice-IHRACAT.xml': invoice('Invoice', {
      profile: 'IHRACAT',
      id: 'ORN2026000000104',
      uuid: '8e2c5f41-0d70-4b1e-8f62-4d5e6f708192',
      typeCode: ['InvoiceTypeCode', 'ISTISNA'],
      currency: 'USD',
      customer: CUSTOMS,
      buyer: { name: 'Hansen Trading GmbH', partyType: 'EXPORT', street: 'Hafenstraße 12', district: 'Altona', city: 'Hamburg', country: 'Almanya' },
      notes: ['Teslim şekli: FOB.'],
      lines: [{ name: 'Kuru kayısı 10 kg koli', quantity: 500, unit: 'C62', price: 4200, vat: 0, exemption: ['301', '11/1-a Mal ihracatı'] }],
    }),
    'invoice-TEVKIFAT.xml': invoice('Invoice', {
      profile: 'TICARIFATURA',
      id: 'ORN2026000000105',
      uuid: '9f3d6052-1e81-4c2f-9073-5e6f708192a3',
      typeCode: ['InvoiceTypeCode', 'TEVKIFAT'],
      notes: ['KDV tevkifatı uygulanmıştır (7/10).'],
      lines: [{ name: 'Temizlik hizmeti (aylık)', quantity: 1, unit: 'MON', price: 2500000, vat: 20, withholding: { code: '614', name: 'KDV TEVKIFAT', percent: 70, ofVat: true } }],
    }),
    'e-mustahsil-makbuzu.xml': invoice('CreditNote', {
      profile: 'EARSIVBELGE',
      id: 'EMM2026000000007',
      uuid: 'a0e4f163-2f92-4d30-8184-6f708192a3b4',
      typeCode: ['CreditNoteTypeCode', 'MUSTAHSILMAKBUZ'],
      customization: 'TR1.2.1',
      vatless: true,
      customer: { ...PERSON, tckn: '47182930510', first: 'Hasan', family: 'Kaya', street: 'Merkez Mah. No:3', district: 'Akşehir', city: 'Konya' },
      lines: [{ name: 'Buğday', quantity: 12000, unit: 'KGM', price: 1150, withholding: { code: '0003', name: 'GELİR VERGİSİ STOPAJI', percent: 2, ofVat: false } }],
    }),
    'despatch-advice.xml': despatch(design),
    'receipt-advice.xml': receipt(),
    'application-response.xml': applicationResponse(),
  };
}

function main() {
  const design = fs.readFileSync(path.join(samplesDir, 'sample-design.xslt'), 'utf8');
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const [name, text] of Object.entries(samples(design))) {
    const file = path.join(samplesDir, name);
    if (check) {
      if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) {
        console.error(`${name} is not what scripts/preview-samples.js writes`);
        stale++;
      }
      continue;
    }
    const tmp = `${file}.tmp-${process.pid}`;
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, file);
    console.log(`wrote media/samples/${name}`);
  }
  if (stale) process.exit(1);
}

if (require.main === module) main();

module.exports = { samples };
