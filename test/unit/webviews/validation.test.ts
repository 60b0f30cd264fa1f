// The forms' shared pure modules: the host's checks of page messages, the field rules both sides
// run, and the mapping of the server's 400/422 messages onto fields.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completeVkn } from '../../../src/domain/taxId';
import { checkPageMessage, fieldNames, LIMITS, parsePersistedState, type FieldSpec } from '../../../src/webviews/protocol';
import { changedFields, formProblems, isValidIban, mapServerMessages, validateField } from '../../../src/webviews/validation';

const fields: FieldSpec[] = [
  { name: 'Name', label: 'Name', kind: 'text', readOnly: true },
  { name: 'TaxNumber', label: 'Tax number', kind: 'text', rules: ['required', 'taxId'] },
  { name: 'Email', label: 'E-mail', kind: 'text', rules: ['email'] },
  { name: 'PostalCode', label: 'Postal code', kind: 'text', rules: ['postalCode'] },
  { name: 'PayeeFinancialAccountID', label: 'Payee account (IBAN)', kind: 'text', rules: ['iban'] },
  { name: 'StartDate', label: 'Valid from', kind: 'date', rules: ['date'] },
  { name: 'EndDate', label: 'Valid until', kind: 'date', rules: ['date', 'notBeforeStart'] },
  { name: 'IsExport', label: 'Export customer', kind: 'checkbox' },
];
const allowed = fieldNames({ sections: [{ title: 'x', fields }] });
/** The checked message, or undefined when it is dropped. */
const parseFromPage = (raw: unknown, names?: ReadonlySet<string>) => {
  const checked = checkPageMessage(raw, names);
  return checked.ok ? checked.message : undefined;
};

test('checkPageMessage accepts the protocol messages and refuses extra fields', () => {
  assert.deepEqual(parseFromPage({ type: 'ready' }), { type: 'ready' });
  assert.equal(parseFromPage({ type: 'ready', extra: 1 }), undefined);
  assert.deepEqual(parseFromPage({ type: 'save', requestId: 3, values: { Email: 'a@b.co', IsExport: true } }, allowed), {
    type: 'save',
    requestId: 3,
    values: { Email: 'a@b.co', IsExport: true },
  });
  assert.deepEqual(parseFromPage({ type: 'lookup', requestId: 1, taxNumber: '1234567890' }), { type: 'lookup', requestId: 1, taxNumber: '1234567890' });
});

test('checkPageMessage refuses malformed, oversized and unknown messages', () => {
  const bad: unknown[] = [
    undefined,
    null,
    [],
    'ready',
    { type: 'nope' },
    { type: 'save', requestId: 1.5, values: {} },
    { type: 'save', requestId: -1, values: {} },
    { type: 'save', requestId: 1, values: [] },
    { type: 'save', requestId: 1, values: { Email: 5 } },
    { type: 'save', requestId: 1, values: { Email: null } },
    { type: 'save', requestId: 1, values: { Unknown: 'x' } },
    { type: 'save', requestId: 1, values: { Email: 'x'.repeat(LIMITS.valueLength + 1) } },
    { type: 'reload' },
    { type: 'lookup', requestId: 1, taxNumber: 12 },
    { type: 'draft', dirty: 1, values: {} },
  ];
  for (const m of bad) assert.equal(parseFromPage(m, allowed), undefined, JSON.stringify(m)?.slice(0, 60));
  const many = Object.fromEntries(Array.from({ length: LIMITS.fields + 1 }, (_, i) => [`f${i}`, 'x']));
  assert.equal(parseFromPage({ type: 'draft', dirty: true, values: many }), undefined);
});

test('parsePersistedState reads only a known form kind and a short record key', () => {
  assert.deepEqual(parsePersistedState({ kind: 'customer', recordKey: 'customer:7', draft: { City: 'Bursa' } }), { kind: 'customer', recordKey: 'customer:7', draft: { City: 'Bursa' } });
  assert.equal(parsePersistedState({ kind: 'evil', recordKey: 'x' }), undefined);
  assert.equal(parsePersistedState({ kind: 'company', recordKey: 'x'.repeat(65) }), undefined);
  assert.equal(parsePersistedState(undefined), undefined);
});

test('field rules: e-mail, phone, web address, postal code, tax number checksum, dates in order', () => {
  const field = (name: string) => fields.find((f) => f.name === name)!;
  const phone: FieldSpec = { name: 'Phone', label: 'Phone', kind: 'text', rules: ['phone'] };
  for (const ok of ['+90 (212) 555-12 34', '2125551234', '1234567', ' 0 212 555 12 34 ', '123456789012345']) {
    assert.equal(validateField(phone, { Phone: ok }), undefined, ok);
  }
  for (const bad of ['123456', '1234567890123456', '212 555 12 3x', '90+2125551234', '++902125551234']) {
    assert.equal(validateField(phone, { Phone: bad }), 'phone', bad);
  }
  const web: FieldSpec = { name: 'WebSite', label: 'Web site', kind: 'text', rules: ['url'] };
  assert.equal(validateField(web, { WebSite: 'https://www.firma.com.tr/iletisim' }), undefined);
  assert.equal(validateField(web, { WebSite: 'firma' }), 'url');
  assert.equal(validateField(field('Email'), { Email: 'muhasebe@' }), 'email');
  assert.equal(validateField(field('Email'), { Email: 'muhasebe@firma.com.tr' }), undefined);
  assert.equal(validateField(field('Email'), { Email: '' }), undefined, 'empty optional fields are valid');
  assert.equal(validateField(field('PostalCode'), { PostalCode: '3400' }), 'postalCode');
  const vkn = completeVkn('123456789');
  const wrong = vkn.slice(0, 9) + String((Number(vkn[9]) + 1) % 10);
  assert.equal(validateField(field('TaxNumber'), { TaxNumber: vkn }), undefined);
  assert.equal(validateField(field('TaxNumber'), { TaxNumber: wrong }), 'taxId');
  assert.equal(validateField(field('TaxNumber'), { TaxNumber: ' ' }), 'required');
  assert.equal(validateField(field('EndDate'), { StartDate: '2026-05-01', EndDate: '2026-04-30' }), 'notBeforeStart');
  assert.equal(validateField(field('EndDate'), { StartDate: '2026-05-01', EndDate: '2026-02-30' }), 'date');
  assert.equal(validateField(field('Name'), { Name: '' }), undefined, 'read-only fields are not checked');
});

test('IBAN: mod-97 check digits, Turkish length; plain account numbers pass the "iban" rule', () => {
  assert.equal(isValidIban('TR33 0006 1005 1978 6457 8413 26'), true);
  assert.equal(isValidIban('TR34 0006 1005 1978 6457 8413 26'), false);
  assert.equal(isValidIban('GB82WEST12345698765432'), true);
  assert.equal(isValidIban('TR33000610051978645784132'), false, 'a Turkish IBAN has 26 characters');
  const field = fields.find((f) => f.name === 'PayeeFinancialAccountID')!;
  assert.equal(validateField(field, { PayeeFinancialAccountID: '12345678' }), undefined);
  assert.equal(validateField(field, { PayeeFinancialAccountID: 'TR00 1234' }), 'iban');
});

test('only changed and required fields block saving', () => {
  const baseline = { Name: 'A', TaxNumber: completeVkn('987654321'), Email: 'not valid from the server', PostalCode: '', IsExport: false };
  assert.deepEqual(formProblems(fields, baseline, baseline), {}, 'an untouched server value does not block');
  assert.deepEqual(changedFields(fields, baseline, { ...baseline, PostalCode: ' 34000 ' }), ['PostalCode']);
  assert.deepEqual(changedFields(fields, baseline, { ...baseline, IsExport: true, Name: 'changed read-only' }), ['IsExport']);
  assert.deepEqual(formProblems(fields, baseline, { ...baseline, PostalCode: '1' }), { PostalCode: 'postalCode' });
  assert.deepEqual(formProblems(fields, baseline, { ...baseline, TaxNumber: '' }), { TaxNumber: 'required' });
  const blank = { ...baseline, TaxNumber: '' };
  assert.deepEqual(formProblems(fields, blank, blank), { TaxNumber: 'required' }, 'an unchanged empty required field blocks');
});

test('server messages go to the field their Detail or Description names, the rest above the form', () => {
  const mapped = mapServerMessages(fields, [
    { description: 'A customer with this tax number exists.', detail: 'index 0, TaxNumber 1234567890' },
    { description: 'EndDate is before StartDate.', detail: 'EndDate' },
    { description: 'The E-mail is not accepted.' },
    { description: 'Unknown PaymentMeansCode value.', detail: 'PaymentMeansCode must be one of: NAKIT.' },
    { description: 'Name is required.', detail: 'Name' },
  ]);
  assert.deepEqual(mapped.fieldErrors, {
    TaxNumber: 'A customer with this tax number exists.',
    EndDate: 'EndDate is before StartDate.',
    Email: 'The E-mail is not accepted.',
  });
  // PaymentMeansCode is no field here and Name is read-only: both are shown above the form.
  assert.deepEqual(mapped.formErrors, ['Unknown PaymentMeansCode value. (PaymentMeansCode must be one of: NAKIT.)', 'Name is required. (Name)']);
});
