// `nilvera.csv.separator` is an enum: a workspace's "constructor" (which `value in table` accepts, as
// every object has it) must not choose a separator; the display language decides instead.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { separatorOfSetting } from '../../../src/shell/separatorSetting';
import { enumValue } from '../../../src/domain/enumValue';

test('the separator setting chooses only by its four values', () => {
  assert.equal(separatorOfSetting('comma'), ',');
  assert.equal(separatorOfSetting('semicolon'), ';');
  assert.equal(separatorOfSetting('tab'), '\t');
  assert.equal(separatorOfSetting('auto'), undefined);
  for (const hostile of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'COMMA', ' comma', '', 42, null, undefined, {}, ['comma']]) {
    assert.equal(separatorOfSetting(hostile), undefined, `${JSON.stringify(hostile)} chose a separator`);
  }
});

test('enumValue accepts own values only', () => {
  const kinds = ['PK', 'GB'] as const;
  assert.equal(enumValue('PK', kinds), 'PK');
  for (const hostile of ['../PK', 'PK/../..', 'constructor', 'pk', 'length', '0']) assert.equal(enumValue(hostile, kinds), undefined, hostile);
});
