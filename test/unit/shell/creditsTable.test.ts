// The credits tooltip's table (src/shell/creditsTable.ts) with a hostile server's packages: an end
// date that is no date is not echoed, a name is text, bidi controls are dropped. Rendered as a
// tooltip's Markdown. Issue 37 rows 8 and 13.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { creditsTableMarkdown, type CreditsTableFormat } from '../../../src/shell/creditsTable';
import { liveMarkup, renderTooltip, textOf } from '../../support/renderMarkdown';

const format: CreditsTableFormat = {
  l10n: { t: (message, ...args) => message.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)])) },
  count: (n) => n.toLocaleString('en'),
  day: (iso) => `day(${iso.slice(0, 10)})`,
};

const cells = (html: string) => [...html.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => textOf(m[1]));

describe('credits tooltip table', () => {
  test('an EndDate that is not a date: "(not a date)", no link or image, nothing of it shown', () => {
    const md = creditsTableMarkdown([{ Name: 'Paket', UsedCredit: 1, TotalCredit: 10, RemainingCredit: 9, EndDate: 'yakında [tıkla](https://evil.example) ![](https://evil.example/p.png)' }], format);
    const html = renderTooltip(md);
    assert.deepEqual(liveMarkup(html), [], html);
    assert.ok(!md.includes('evil.example') && !md.includes('yakında'), md);
    assert.deepEqual(cells(html), ['Paket', '1 / 10', '9', '(not a date)']);
  });

  test('a real ISO end date is formatted; a lenient one ("1") is not a date', () => {
    const html = renderTooltip(creditsTableMarkdown([{ Name: 'A', EndDate: '2027-03-01T00:00:00' }, { Name: 'B', EndDate: '1' }], format));
    assert.deepEqual(cells(html), ['A', '- / -', '-', 'day(2027-03-01)', 'B', '- / -', '-', '(not a date)']);
  });

  test('a package name is shown as text, without bidi or control characters, in its own cell', () => {
    const html = renderTooltip(creditsTableMarkdown([{ Name: '**Kampanya** | <img src=x> \u202Egnp.exe\u202C\n# x', RemainingCredit: 5 }], format));
    assert.deepEqual(liveMarkup(html), [], html);
    assert.equal(cells(html)[0], '**Kampanya** | <img src=x> gnp.exe # x');
    assert.equal(cells(html).length, 4);
  });
});
