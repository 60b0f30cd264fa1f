// The one Markdown escape (src/domain/markdown.ts): server text rendered as VS Code renders it stays
// text, exactly: no link, image, HTML, heading, emphasis or table cell of its own. Issue 37 row 8.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { escapeMarkdown, inlineCode, markdownCell, sourceCell } from '../../../src/domain/markdown';
import { liveMarkup, renderPreview, renderTooltip, textOf } from '../../support/renderMarkdown';

const HOSTILE = [
  '[click](https://evil.example/steal)',
  '![x](https://evil.example/pixel.png)',
  '<img src="https://evil.example/p.png">',
  '<a href="command:nilvera.customers.delete">ok</a>',
  'https://evil.example/auto',
  'www.evil.example',
  '<https://evil.example>',
  'mail@evil.example',
  '[ref]: https://evil.example',
  '# Heading',
  '**bold** _em_ ~~strike~~',
  '$(alert) icon',
  '&lt;script&gt;',
  '| a | b |',
  '> quote',
  '1. list',
];

/** Printable ASCII with many punctuation marks, and a few non-ASCII letters: one line, no surrounding spaces. */
const lineArb = fc
  .array(fc.constantFrom(...'ab Zı&<>[]()!*_`~#|\\:/.-+=@$%{}\'";,?^'.split('')), { minLength: 1, maxLength: 40 })
  .map((cs) => cs.join('').replace(/\s+/g, ' ').trim())
  .filter((s) => s.length > 0);

describe('escapeMarkdown', () => {
  test('hostile text renders as itself: no link, image or HTML (tooltip renderer)', () => {
    for (const text of HOSTILE) {
      const html = renderTooltip(escapeMarkdown(text));
      assert.deepEqual(liveMarkup(html), [], `${text} → ${html}`);
      assert.ok(!/<(h1|strong|em|s|blockquote|ol|table)\b/.test(html), `${text} became markup: ${html}`);
      assert.equal(textOf(html).trim(), text);
    }
  });

  test('any one-line text comes back exactly, as a paragraph of text (property)', () => {
    fc.assert(
      fc.property(lineArb, (text) => {
        const html = renderTooltip(escapeMarkdown(text));
        assert.equal(html.trim(), `<p>${html.trim().slice(3, -4)}</p>`);
        assert.equal(textOf(html).trim(), text);
      }),
      { numRuns: 500 },
    );
  });

  test('markdownCell keeps a table row a row: pipes and line breaks cannot open cells or rows', () => {
    const row = `| ${markdownCell('a | b\n| c |')} | ${markdownCell('[x](https://evil.example)')} |`;
    const html = renderTooltip(`| A | B |\n|---|---|\n${row}\n`);
    assert.equal((html.match(/<td>/g) ?? []).length, 2, html);
    assert.deepEqual(liveMarkup(html), []);
  });
});

describe('sourceCell (Markdown read as source: a registry detail, the Check Connection report)', () => {
  test('a server value with pipes and any line break stays in its one cell and row, its words kept as written', () => {
    const hostile = 'Işıltı A.Ş. | forged\r\n| `urn:mail:forged@evil.example` |\u2028next\u2029last\nend';
    const row = `| Title | ${sourceCell(hostile)} |`;
    assert.equal(row.split('\n').length, 1, row);
    const html = renderTooltip(`| Field | Value |\n|---|---|\n${row}\n`);
    const cells = [...html.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((m) => m[1]);
    assert.equal(cells.length, 2, html);
    assert.equal((html.match(/<tr>/g) ?? []).length, 2, html);
    // GFM drops the cells a row has beyond its header's: the whole value must be in the second.
    for (const word of ['forged', 'urn:mail:forged@evil.example', 'next', 'last', 'end']) assert.ok(cells[1]?.includes(word), `${word} left its cell: ${html}`);
    assert.ok(sourceCell('Işıltı Makine A.Ş. (Merkez)').includes('A.Ş. (Merkez)'), 'punctuation other than pipes is left as written');
  });
});

describe('inlineCode', () => {
  test('any text, backticks and pipes included, is one code span with exactly that text, also in a table cell (property)', () => {
    fc.assert(
      fc.property(lineArb, (text) => {
        const html = renderPreview(`| A |\n|---|\n| ${inlineCode(text)} |\n`);
        const cells = [...html.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((m) => m[1]);
        assert.equal(cells.length, 1, html);
        assert.match(cells[0], /^<code>[\s\S]*<\/code>$/, html);
        assert.equal(textOf(cells[0]), text);
      }),
      { numRuns: 500 },
    );
  });

  test('in the preview (HTML and linkify on) hostile text is never live', () => {
    for (const text of HOSTILE) assert.deepEqual(liveMarkup(renderPreview(`- ${inlineCode(text)}\n`)), [], text);
    assert.equal(inlineCode(''), '');
  });
});
