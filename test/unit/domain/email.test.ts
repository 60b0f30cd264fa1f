// The one e-mail check (src/domain/email.ts): the customer import and the forms accept and refuse the
// same addresses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importCustomersJson } from '../../../src/domain/customerImport';
import { validateField } from '../../../src/webviews/validation';
import { completeVkn } from '../../../src/domain/taxId';

const ACCEPTED = ['info@ornek.com.tr', 'a@b.co', ' muhasebe@firma.com ', 'a@b.com.tr; c@d.com', 'a@b.com.tr,c@d.com'];
const REFUSED = ['not-an-email', 'a@b', 'a@b.c', 'a b@c.com', 'a@b.com;', '@b.com', 'a@.com'];

const importAccepts = (email: string) => importCustomersJson([{ TaxNumber: completeVkn('123456789'), Name: 'Örnek', Email: email }]).rejected.length === 0;
const formAccepts = (email: string) => validateField({ name: 'Email', label: 'E-mail', kind: 'text', rules: ['email'] }, { Email: email }) === undefined;

test('the import and the forms accept the same addresses', () => {
  for (const email of ACCEPTED) assert.deepEqual([importAccepts(email), formAccepts(email)], [true, true], email);
});

test('the import and the forms refuse the same addresses', () => {
  for (const email of REFUSED) assert.deepEqual([importAccepts(email), formAccepts(email)], [false, false], email);
});
