// Seed data generated from a seed value: the same seed gives the same records (dates are relative
// to today so certificate expiry stays meaningful).
import { completeTckn, completeVkn } from '../../domain/taxId';
import type { Registry } from '../registry';
import type { PlainReadId } from '../../api/operations';
import { CERTIFICATE_TYPES, type OperationAnswers } from '../../api/types';
import type { CustomerRecord, MutableState } from '../records';
import { Prng } from './prng';
import { addDays, formatDate, todayUtc } from './dates';
import { asciiSlug, CITIES, COMPANY_WORDS, DOMAINS, FIRST_NAMES, SECTORS, slugOfFirstWord, STREETS, SUFFIXES, SURNAMES } from './names';

/** The company the API key belongs to. */
export function generateMutableState(seed: number): MutableState {
  const rng = new Prng(seed * 31 + 1);
  const today = todayUtc();
  const place = rng.pick(CITIES);
  const word = rng.pick(COMPANY_WORDS);
  const name = `${word} ${rng.pick(SECTORS)} ${rng.pick(SUFFIXES)}`;
  const taxNumber = completeVkn(String(rng.int(100_000_000, 999_999_999)));
  const domain = `${asciiSlug(word)}.com.tr`;
  // Expiry spread: expired, expiring within 30 days, and valid for long.
  const endOffsets = [-40, -3, 5, 21, 200, 700];
  const certificates = endOffsets.map((end, k) => ({
    ID: k + 1,
    SerialNo: `${rng.pick(['4E', '7A', '1C', 'B2'])}${rng.digits(8)}${k}`,
    TaxNumber: taxNumber,
    StartDate: formatDate(addDays(today, end - 730)),
    EndDate: formatDate(addDays(today, end)),
    Type: CERTIFICATE_TYPES[k % 3],
    Password: null,
    Description: k === 0 ? 'Eski mali mühür' : `Sertifika ${k + 1}`,
  }));
  return {
    company: {
      Name: name,
      TaxNumber: taxNumber,
      TaxOffice: rng.pick(place.taxOffices),
      Address: `${rng.pick(STREETS)} No:${rng.int(1, 120)}`,
      District: rng.pick(place.districts),
      City: place.city,
      Country: 'Türkiye',
      PostalCode: String(rng.int(10000, 81999)),
      PhoneNumber: `0${rng.int(212, 488)}${rng.digits(7)}`,
      Fax: null,
      Email: `info@${domain}`,
      WebSite: `https://www.${domain}`,
      IsActive: true,
      IsDeleted: false,
      PayeeFinancialAccountID: `TR${rng.digits(24)}`,
      PaymentMeansChannelCode: null,
      PaymentMeansCode: 'HAVALE_EFT',
      Aliases: [
        { Alias: `urn:mail:defaultpk@${domain}`, AliasType: 0, Type: 0 },
        { Alias: `urn:mail:defaultgb@${domain}`, AliasType: 1, Type: 0 },
      ],
    },
    certificates,
    documents: [
      { ID: 1, Name: 'Vergi Levhası', FileType: 'pdf', Size: 12, CreatedDate: formatDate(addDays(today, -90)), Base64String: Buffer.from('%PDF-1.4 seed').toString('base64') },
      { ID: 2, Name: 'İmza Sirküleri', FileType: 'pdf', Size: 12, CreatedDate: formatDate(addDays(today, -60)), Base64String: Buffer.from('%PDF-1.4 seed').toString('base64') },
    ],
    identifications: [
      { ID: 1, CompanyID: 1, Name: 'MERSISNO', Value: `0${rng.digits(15)}` },
      { ID: 2, CompanyID: 1, Name: 'TICARETSICILNO', Value: rng.digits(6) },
    ],
    mailing: [
      { ID: 1, CompanyID: 1, ModuleID: 'Portal', IsActive: true },
      { ID: 2, CompanyID: 1, ModuleID: 'Sms', IsActive: false },
      { ID: 3, CompanyID: 1, ModuleID: 'WhatsApp', IsActive: false },
    ],
    taxOffice: { UserName: taxNumber, Password: 'ivd-' + rng.digits(6) },
    templates: [
      { ID: 1, Name: 'Standart Şablon', IsActive: true, IsDefault: true, FileSize: 0 },
      { ID: 2, Name: 'Logolu Şablon', IsActive: true, IsDefault: false, FileSize: 0 },
      { ID: 3, Name: 'İngilizce Şablon', IsActive: false, IsDefault: false, FileSize: 0 },
    ],
    series: [
      { ID: 1, Name: 'EAB', IsActive: true, IsDefault: true },
      { ID: 2, Name: 'SMM', IsActive: true, IsDefault: false },
      { ID: 3, Name: 'ESK', IsActive: false, IsDefault: false },
    ],
    nextIds: { certificate: certificates.length + 1, document: 3, identification: 3 },
  };
}

/**
 * The plain reads (src/api/operations.ts) the sandbox answers with seed data that never changes: each
 * gets its route from this list (src/sandbox/routes/index.ts) and its data from generateStaticState.
 */
export const STATIC_READS = ['company.list', 'company.modules', 'account.alerts', 'account.campaigns', 'account.credits', 'account.exchangeRate'] as const satisfies readonly PlainReadId[];

/** Read-only seed records, by operation. */
export type StaticState = Pick<OperationAnswers, (typeof STATIC_READS)[number]>;

export function generateStaticState(seed: number, company: MutableState['company']): StaticState {
  const rng = new Prng(seed * 31 + 2);
  const today = todayUtc();
  const rate = (base: number) => (base + rng.next() * base * 0.02).toFixed(4).replace('.', ',');
  const usd = 34 + rng.next();
  const eur = usd * 1.08;
  const gbp = usd * 1.27;
  const credit = (Name: string, ModuleID: number, total: number, DurationType: 'Indefinite' | 'Year' | 'Month', endDays: number) => {
    const used = rng.int(0, total);
    return {
      Name, ModuleID, TaxNumber: company.TaxNumber ?? '', TotalCredit: total, UsedCredit: used, RemainingCredit: total - used,
      UsePercentage: Math.round((used / total) * 10000) / 100, DurationType, EndDate: formatDate(addDays(today, endDays)), IsControl: true,
    };
  };
  return {
    'company.list': [
      { Name: company.Name ?? '', TaxNumber: company.TaxNumber ?? '', IsActive: true },
      { Name: `${rng.pick(SURNAMES)} ${rng.pick(SECTORS)} ${rng.pick(SUFFIXES)}`, TaxNumber: completeVkn(String(rng.int(100_000_000, 999_999_999))), IsActive: true },
      { Name: `${rng.pick(FIRST_NAMES)} ${rng.pick(SURNAMES)}`, TaxNumber: completeTckn(String(rng.int(100_000_000, 999_999_999))), IsActive: false },
    ],
    'company.modules': [
      { Name: 'EInvoice', Description: 'e-Fatura', IsActive: true, IsActivation: true },
      { Name: 'EArchive', Description: 'e-Arşiv Fatura', IsActive: true, IsActivation: true },
      { Name: 'EDespatch', Description: 'e-İrsaliye', IsActive: false, IsActivation: false },
      { Name: 'ESmm', Description: 'e-Serbest Meslek Makbuzu', IsActive: true, IsActivation: false },
      { Name: 'EVoucher', Description: 'e-Müstahsil Makbuzu', IsActive: false, IsActivation: false },
    ],
    'account.alerts': [
      { ID: 1, Type: 'Warning', Message: 'Mali mühür sertifikanızın süresi yakında doluyor.', CreationDate: formatDate(addDays(today, -2)) },
      { ID: 2, Type: 'Information', Message: 'Yeni e-Arşiv şablonları kullanıma açıldı.', CreationDate: formatDate(addDays(today, -10)) },
      { ID: 3, Type: 'Error', Message: 'Kontör bakiyeniz %10’un altına düştü.', CreationDate: formatDate(addDays(today, -1)) },
    ],
    'account.campaigns': [
      { Name: 'Yıl Sonu Kampanyası', CreatedDate: formatDate(addDays(today, -20)), EndDate: formatDate(addDays(today, 40)), Content: 'Yıllık paketlerde %20 indirim.', Subject: 'Kampanya', IsActive: true, Url: 'https://nilvera.com/kampanya' },
      { Name: 'Bahar Fırsatı', CreatedDate: formatDate(addDays(today, -200)), EndDate: formatDate(addDays(today, -150)), Content: 'e-İrsaliye paketinde ek kontör.', Subject: 'Fırsat', IsActive: false, Url: 'https://nilvera.com/firsat' },
    ],
    'account.credits': [
      credit('e-Fatura Kontör', 1, 5000, 'Year', 180),
      credit('e-Arşiv Kontör', 2, 2000, 'Month', 12),
      credit('e-SMM Kontör', 3, 500, 'Indefinite', 3650),
    ],
    'account.exchangeRate': { USDBuy: rate(usd), USDSale: rate(usd * 1.005), EUROBuy: rate(eur), EUROSale: rate(eur * 1.005), GBPBuy: rate(gbp), GBPSale: rate(gbp * 1.005) },
  };
}

/** A customer's address and phone in a city of CITIES (drawn in this order: a seed's customers stay the same). */
function addressIn(rng: Prng, place: (typeof CITIES)[number]) {
  return {
    TaxDepartment: rng.pick(place.taxOffices), Address: `${rng.pick(STREETS)} No:${rng.int(1, 200)}`, Country: 'Türkiye', City: place.city,
    District: rng.pick(place.districts), PostalCode: String(rng.int(10000, 81999)), Phone: `05${rng.digits(9)}`,
  };
}

/**
 * Customers: most are registered taxpayers (their numbers come from the registry), the rest have
 * valid checksums but are not registered; then `invalid` legacy customers.
 */
export function generateCustomers(seed: number, count: number, registry: Registry, invalid = 0): CustomerRecord[] {
  const rng = new Prng(seed * 31 + 3);
  const today = todayUtc();
  const out: CustomerRecord[] = [];
  const used = new Set<string>();
  for (let id = 1; id <= count; id++) {
    let taxNumber = '';
    let name = '';
    if (registry.size > 0 && rng.chance(0.85)) {
      for (let attempt = 0; attempt < 5 && !taxNumber; attempt++) {
        const entry = registry.entryAt(rng.int(0, registry.size - 1));
        if (used.has(entry.TaxNumber)) continue;
        taxNumber = entry.TaxNumber;
        name = entry.Title;
      }
    }
    // The rest: valid numbers the registry does not know (e-Archive customers).
    while (!taxNumber) {
      const person = rng.chance(0.3);
      const candidate = person ? completeTckn(String(rng.int(100_000_000, 999_999_999))) : completeVkn(rng.digits(9));
      if (used.has(candidate) || registry.indexOf(candidate) >= 0) continue;
      taxNumber = candidate;
      name = person ? `${rng.pick(FIRST_NAMES)} ${rng.pick(SURNAMES)}` : `${rng.pick(SURNAMES)} ${rng.pick(COMPANY_WORDS)} ${rng.pick(SECTORS)} ${rng.pick(SUFFIXES)}`;
    }
    used.add(taxNumber);
    const place = rng.pick(CITIES);
    const domain = `${slugOfFirstWord(name)}${id}.${rng.pick(DOMAINS)}`;
    const created = formatDate(addDays(today, -rng.int(1, 900)));
    out.push({
      ID: id, TaxNumber: taxNumber, Name: name, ...addressIn(rng, place), Fax: null, Email: `muhasebe@${domain}`,
      WebSite: rng.chance(0.5) ? `www.${domain}` : null, IsExport: rng.chance(0.05), CreatedDate: created, ModifiedDate: created,
    });
  }
  return [...out, ...generateInvalidCustomers(seed, invalid, count + 1)];
}

/**
 * Legacy customers whose tax numbers fail the checksum (typed before the API checked them), IDs
 * after `firstId`; a separate stream of the seed, so the regular customers stay the same.
 */
function generateInvalidCustomers(seed: number, count: number, firstId: number): CustomerRecord[] {
  const rng = new Prng(seed * 31 + 7);
  const today = todayUtc();
  const out: CustomerRecord[] = [];
  for (let k = 0; k < count; k++) {
    const person = k % 3 === 2;
    const valid = person ? completeTckn(String(rng.int(100_000_000, 999_999_999))) : completeVkn(rng.digits(9));
    // Off by one in the last digit: the checksum no longer holds.
    const taxNumber = valid.slice(0, -1) + String((Number(valid.slice(-1)) + 1 + rng.int(0, 8)) % 10);
    const place = rng.pick(CITIES);
    const name = person ? `${rng.pick(FIRST_NAMES)} ${rng.pick(SURNAMES)}` : `${rng.pick(SURNAMES)} ${rng.pick(COMPANY_WORDS)} ${rng.pick(SECTORS)} ${rng.pick(SUFFIXES)}`;
    const created = formatDate(addDays(today, -rng.int(900, 2000)));
    out.push({
      ID: firstId + k, TaxNumber: taxNumber, Name: name, ...addressIn(rng, place),
      Fax: null, Email: null, WebSite: null, IsExport: false, CreatedDate: created, ModifiedDate: created,
    });
  }
  return out;
}
