import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkTaxId, completeTckn, completeVkn, isValidTckn, isValidVkn } from '../../../src/domain/taxId';
import { singleDigitTypos } from '../../support/taxIdTypos';

test('VKN examples from the domain notes', () => {
  for (const v of ['1234567890', '4540536920', '0123456789']) assert.equal(isValidVkn(v), true, v);
  for (const v of ['4540536921', '1111111111', '0000000000']) assert.equal(isValidVkn(v), false, v);
});

test('TCKN examples from the domain notes, including a negative intermediate', () => {
  for (const v of ['10000000146', '17291716060', '12345678950']) assert.equal(isValidTckn(v), true, v);
  for (const v of ['17291716050', '12345678901', '01234567890']) assert.equal(isValidTckn(v), false, v);
  // 190909090: 7*odd - even is negative before the mod; the 10th digit must be 1.
  assert.equal(completeTckn('190909090')[9], '1');
});

test('every single-digit typo of a valid VKN or TCKN is caught', () => {
  let tried = 0;
  for (const valid of ['4540536920', '1234567890', '0123456789', completeVkn('987654321'), '10000000146', '17291716060', completeTckn('523456781')]) {
    assert.equal(checkTaxId(valid).valid, true, valid);
    for (const { typo } of singleDigitTypos(valid)) {
      tried++;
      assert.equal(checkTaxId(typo).valid, false, `${valid} -> ${typo}`);
    }
  }
  assert.ok(tried > 400);
});

test('checkTaxId names the problem and the expected check digits', () => {
  assert.deepEqual(checkTaxId(' 4540536921 '), { valid: false, kind: 'VKN', value: '4540536921', problem: 'checksum', expectedCheckDigits: '0' });
  const short = checkTaxId('905978176');
  assert.equal(!short.valid && short.problem, 'length');
  const r = checkTaxId('12345-67890');
  assert.equal(!r.valid && r.problem, 'notDigits');
  const e = checkTaxId('');
  assert.equal(!e.valid && e.problem, 'empty');
  const z = checkTaxId('01234567890');
  assert.equal(!z.valid && z.problem, 'tcknLeadingZero');
  const t = checkTaxId('49798834353');
  assert.equal(!t.valid && t.problem, 'checksum');
  assert.equal(!t.valid && t.expectedCheckDigits, completeTckn('497988343').slice(9));
  assert.notEqual(completeTckn('497988343').slice(9), '53');
});

test('the VKN rule does not turn t = 0 into 9 (the common bug)', () => {
  // Count prefixes where the buggy variant would disagree; our function must agree with the
  // definition on a brute-force reference for those.
  const reference = (nine: string): number => {
    let sum = 0;
    for (let i = 1; i <= 9; i++) {
      const t = (Number(nine[i - 1]) + 10 - i) % 10;
      const p = t === 0 ? 0 : (t * Math.pow(2, 10 - i)) % 9 || 9;
      sum += p;
    }
    return (10 - (sum % 10)) % 10;
  };
  for (let n = 0; n < 20000; n++) {
    const nine = String((n * 7919) % 1000000000).padStart(9, '0');
    assert.equal(completeVkn(nine), nine + reference(nine));
  }
});
