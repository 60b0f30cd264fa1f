// The display-text sanitizer (src/domain/displayText.ts): bidi controls, invisible marks and control
// characters from a server never reach a label; the text itself is kept. Issue 37 row 13.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { displayText, displayTextOr } from '../../../src/domain/displayText';

/** Every character class the sanitizer must remove. */
const DROPPED = [
  '\u202A', '\u202B', '\u202C', '\u202D', '\u202E', // embeddings and overrides
  '\u2066', '\u2067', '\u2068', '\u2069', // isolates
  '\u200E', '\u200F', '\u061C', // marks
  '\u200B', '\u2060', '\uFEFF', '\u180E', '\u206A', '\uFFF9', // invisible
  '\u0000', '\u0007', '\u001B', '\u007F', '\u0080', '\u009B', // C0, DEL, C1 (CSI)
  '\uD800', '\uDFFF', // lone surrogates
];

describe('displayText', () => {
  test('an override that turns a name around is dropped, the name kept', () => {
    assert.equal(displayText('Acme \u202Egnp.exe\u202C Ltd'), 'Acme gnp.exe Ltd');
    assert.equal(displayText('\u2067Şirket\u2069 A.Ş.'), 'Şirket A.Ş.');
  });

  test('each bidi, invisible and control character is dropped', () => {
    for (const c of DROPPED) assert.equal(displayText(`a${c}b`), 'ab', `U+${c.charCodeAt(0).toString(16)}`);
  });

  test('line breaks and tabs become one space; the ends are trimmed', () => {
    assert.equal(displayText(' a\r\n\tb\u2028c\u0085d '), 'a b c d');
  });

  test('Turkish letters, emoji (with joiners) and other scripts stay as they are', () => {
    for (const s of ['Çağrı İşçi Ğüşöç', '👩‍💻 ekip', 'שלום', 'مرحبا', 'ناصح‌ها']) assert.equal(displayText(s), s);
  });

  test('displayTextOr: missing, non-text or emptied values give the fallback', () => {
    assert.equal(displayTextOr(undefined, '(no name)'), '(no name)');
    assert.equal(displayTextOr({}, '-'), '-');
    assert.equal(displayTextOr('\u202E\u200B', '(no name)'), '(no name)');
    assert.equal(displayTextOr(42, '-'), '42');
  });

  test('no output holds a dropped character or a line break, and it is idempotent (property)', () => {
    const pieces = fc.oneof(fc.constantFrom(...DROPPED, '\n', '\r', '\t', '\u2028'), fc.string({ unit: 'binary', maxLength: 6 }));
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 20 }), (parts) => {
        const out = displayText(parts.join(''));
        for (const c of DROPPED) assert.ok(!out.includes(c) || isPairHalf(out, c), `U+${c.charCodeAt(0).toString(16)} in ${JSON.stringify(out)}`);
        assert.ok(!/[\n\r\t\u2028\u2029\u0085]/.test(out));
        assert.equal(displayText(out), out);
      }),
      { numRuns: 500 },
    );
  });
});

/** A surrogate that is half of a whole character in `s` (kept), not a lone one. */
function isPairHalf(s: string, c: string): boolean {
  if (!/[\uD800-\uDFFF]/.test(c)) return false;
  return [...s].every((ch) => ch.length === 2 || !/[\uD800-\uDFFF]/.test(ch));
}
