// The hover card's markdown: verdict and reason, what the offline list says, the online line, the
// links, and the escaping of values from files or the registry (rendered with markdown-it to check).
import * as assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { test } from 'node:test';
import { checkTaxId, completeTckn, completeVkn, tcknCheckDigits, vknCheckDigit } from '../../../../src/domain/taxId';
import { CARD_COMMANDS, hoverCardMarkdown, type HoverCardInput } from '../../../../src/editor/hover/hoverCard';
import type { OfflineAlias, OfflineTaxpayer } from '../../../../src/registry/offlineLookup';

const root = path.resolve(__dirname, '..', '..', '..', '..', '..');
// markdown-it is in node_modules (through @vscode/vsce); loaded at run time, not bundled.
const MarkdownIt = createRequire(path.join(root, 'package.json'))('markdown-it') as new (options: { html: boolean; linkify: boolean }) => { render(md: string): string };
const markdown = new MarkdownIt({ html: false, linkify: false });

/** English "translation" with {n} placeholders filled, as vscode.l10n.t does without a bundle. */
const l10n = { t: (message: string, ...args: Array<string | number>) => message.replace(/\{(\d+)\}/g, (_m, i: string) => String(args[Number(i)])) };
const formatDate = (iso: string) => `<${iso.slice(0, 10)}>`;
const card = (input: HoverCardInput) => hoverCardMarkdown(input, l10n, formatDate);
/** The card as rendered text (tags stripped, entities decoded): what the user reads. */
function renderedText(md: string): string {
  return markdown
    .render(md)
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
function links(md: string): Array<{ command: string; args: unknown }> {
  return [...markdown.render(md).matchAll(/<a href="([^"]*)"/g)].map((m) => {
    const href = m[1].replace(/&amp;/g, '&');
    const [target, query] = href.split('?');
    return { command: target.replace(/^command:/, ''), args: query ? JSON.parse(decodeURIComponent(query)) : undefined };
  });
}

const VKN = completeVkn('123456789');
const TCKN = completeTckn('123456789');
const downloadedAt = '2026-11-20T08:00:00.000Z';

function alias(name: string, kind: 'PK' | 'GB', deleted?: string): OfflineAlias {
  return { name, kind, document: 'Invoice', deleted };
}
function taxpayer(aliases: OfflineAlias[], title = 'ACME Yazılım A.Ş.'): OfflineTaxpayer {
  return { taxNumber: VKN, title, type: 'Özel', accountType: 'Kurumsal', aliases, downloadedAt };
}

test('valid VKN and TCKN: verdict, Check online with the number, Copy', () => {
  for (const [value, verdict] of [
    [VKN, 'VKN — valid'],
    [TCKN, 'TCKN — valid'],
  ]) {
    const md = card({ check: checkTaxId(value), registry: { state: 'noIndex' } });
    assert.match(renderedText(md), new RegExp(`^${verdict} ${value}`));
    assert.deepEqual(
      links(md).filter((l) => l.command !== CARD_COMMANDS.download),
      [
        { command: CARD_COMMANDS.checkOnline, args: [{ taxNumber: value, userType: 'Invoice' }] },
        { command: CARD_COMMANDS.copy, args: [value] },
      ],
    );
  }
});

test('invalid VKN: the 10th digit the first nine call for; no registry line, no Check online', () => {
  const wrong = `123456789${(vknCheckDigit('123456789') + 1) % 10}`;
  const text = renderedText(card({ check: checkTaxId(wrong) }));
  assert.match(text, /^VKN — invalid/);
  assert.ok(text.includes(`Invalid VKN ${wrong}: the 10th digit should be ${vknCheckDigit('123456789')} for these first nine digits.`), text);
  assert.deepEqual(links(card({ check: checkTaxId(wrong) })).map((l) => l.command), [CARD_COMMANDS.copy]);
});

test('invalid TCKN: names the 11th digit alone when the 10th is right, both otherwise', () => {
  const [d10, d11] = tcknCheckDigits('123456789');
  const only11 = `123456789${d10}${(d11 + 1) % 10}`;
  assert.ok(renderedText(card({ check: checkTaxId(only11) })).includes(`Invalid TCKN ${only11}: the 11th digit should be ${d11} for these first ten digits.`));
  const both = `123456789${(d10 + 1) % 10}${d11}`;
  assert.ok(renderedText(card({ check: checkTaxId(both) })).includes(`Invalid TCKN ${both}: the 10th and 11th digits should be ${d10} and ${d11} for these first nine digits.`));
});

test('TCKN with a leading zero says so', () => {
  const text = renderedText(card({ check: checkTaxId('01234567890') }));
  assert.match(text, /^TCKN — invalid 01234567890 Invalid TCKN 01234567890: a TCKN cannot start with 0\./);
});

test('registered: title, type, account type, active PK and GB aliases, withdrawn ones, the list date', () => {
  const t = taxpayer([alias('urn:mail:defaultpk@acme.com.tr', 'PK'), alias('urn:mail:eskipk@acme.com.tr', 'PK', '2025-01-01'), alias('urn:mail:defaultgb@acme.com.tr', 'GB')]);
  const text = renderedText(card({ check: checkTaxId(VKN), registry: { state: 'found', taxpayer: t } }));
  for (const part of [
    'ACME Yazılım A.Ş.',
    'Type: Özel · Account type: Kurumsal',
    'Registered e-invoice user.',
    'PK (receiving): urn:mail:defaultpk@acme.com.tr',
    'GB (sending): urn:mail:defaultgb@acme.com.tr',
    'Withdrawn: urn:mail:eskipk@acme.com.tr (PK)',
    `Registry list downloaded <${downloadedAt.slice(0, 10)}>`,
  ])
    {assert.ok(text.includes(part), `missing ${JSON.stringify(part)} in ${text}`);}
  assert.ok(!text.includes('PK (receiving): urn:mail:defaultpk@acme.com.tr, urn:mail:eskipk'), 'a withdrawn alias is not listed as active');
});

test('many aliases: three shown and a count; many withdrawn ones only counted', () => {
  const active = Array.from({ length: 5 }, (_, i) => alias(`urn:mail:pk${i}@acme.com.tr`, 'PK'));
  const withdrawn = Array.from({ length: 7 }, (_, i) => alias(`urn:mail:old${i}@acme.com.tr`, 'GB', '2024-05-01'));
  const text = renderedText(card({ check: checkTaxId(VKN), registry: { state: 'found', taxpayer: taxpayer([...active, ...withdrawn]) } }));
  assert.ok(text.includes('PK (receiving): urn:mail:pk0@acme.com.tr, urn:mail:pk1@acme.com.tr, urn:mail:pk2@acme.com.tr and 2 more'), text);
  assert.ok(text.includes('7 withdrawn aliases'));
  assert.ok(!text.includes('old0'), 'withdrawn names are not listed when there are many');
});

test('deregistered: every alias withdrawn', () => {
  const text = renderedText(card({ check: checkTaxId(VKN), registry: { state: 'found', taxpayer: taxpayer([alias('urn:mail:pk@a.tr', 'PK', '2025-02-02')]) } }));
  assert.ok(text.includes('Deregistered: every alias has been withdrawn.'));
  assert.ok(!text.includes('Registered e-invoice user.'));
  assert.ok(!text.includes('PK (receiving)'));
});

test('not in the list: says so with the date; no list: a link that downloads one', () => {
  const missing = renderedText(card({ check: checkTaxId(VKN), registry: { state: 'missing', downloadedAt } }));
  assert.ok(missing.includes(`Not an e-invoice user: not in the registry list downloaded <${downloadedAt.slice(0, 10)}>.`), missing);
  const none = card({ check: checkTaxId(VKN), registry: { state: 'noIndex' } });
  assert.ok(renderedText(none).includes('No registry list on this computer. Download the registry list'));
  assert.ok(links(none).some((l) => l.command === CARD_COMMANDS.download));
});

test('values from the registry cannot inject markdown, HTML or links', () => {
  const evil = '<img src=x onerror=alert(1)> **bold** [run](command:workbench.action.terminal.new) `code` # _x_ \\';
  const t = { ...taxpayer([alias('[pk](command:evil)', 'PK')], evil), type: '<b>Özel</b>' };
  const md = card({ check: checkTaxId(VKN), registry: { state: 'found', taxpayer: t }, online: { state: 'registered', title: evil, aliases: ['<script>x</script>'] } });
  const html = markdown.render(md);
  assert.ok(!/<img|<b>|<script|<em>|<h1/.test(html), html);
  assert.equal((html.match(/<strong>/g) ?? []).length, 2, 'only the verdict and the title are bold');
  assert.equal((html.match(/<code>/g) ?? []).length, 1, 'only the tax number is code');
  for (const l of links(md)) assert.ok((Object.values(CARD_COMMANDS) as string[]).includes(l.command), `unexpected link ${l.command}`);
  const text = renderedText(md);
  assert.ok(text.includes(evil), 'the title is shown as it is, as text');
  assert.ok(text.includes('PK (receiving): [pk](command:evil)'));
});

test('a registry title stays one line of text: its line breaks folded, no web or mail address made a link', () => {
  const linkifying = new MarkdownIt({ html: false, linkify: true });
  const title = 'ACME\n\nLtd https://evil.example/x a@b.tr';
  const md = card({ check: checkTaxId(VKN), registry: { state: 'found', taxpayer: taxpayer([alias('urn:mail:pk@b.tr', 'PK')], title) } });
  const html = linkifying.render(md);
  assert.ok(!/href="(?:https?:|mailto:)/.test(html), html);
  assert.equal((html.match(/<strong>/g) ?? []).length, 2, 'the title is one bold run');
  assert.ok(renderedText(md).includes('ACME Ltd https://evil.example/x a@b.tr'));
});

test('a registry title cannot reorder what the card says: bidi and control characters are dropped', () => {
  // U+202E turns the rest of a line around ("ACME Ltd" would read as a reversed text); U+2066 isolates.
  const title = 'ACME\u202e dtL\u2066 Gıda\u0007';
  const md = card({ check: checkTaxId(VKN), registry: { state: 'found', taxpayer: taxpayer([alias('urn:mail:pk@b.tr\u200f', 'PK')], title) }, online: { state: 'registered', title, aliases: [] } });
  for (const hidden of ['\u202e', '\u2066', '\u200f', '\u0007']) assert.ok(!md.includes(hidden), JSON.stringify(md));
  assert.ok(renderedText(md).includes('ACME dtL Gıda'));
});

test('online lines: registered, not registered, rate limited, failures', () => {
  const line = (online: HoverCardInput['online']) => renderedText(card({ check: checkTaxId(VKN), registry: { state: 'noIndex' }, online }));
  assert.ok(line({ state: 'registered', title: 'ACME', aliases: ['urn:mail:a@b.tr'] }).includes('Online: registered e-invoice user, ACME (urn:mail:a@b.tr)'));
  assert.ok(line({ state: 'notRegistered' }).includes('Online: not an e-invoice user.'));
  assert.ok(line({ state: 'rateLimited' }).includes('Online look-up paused'));
  assert.ok(line({ state: 'failed', reason: 'timeout' }).includes('Online look-up failed: no answer in time.'));
  assert.ok(line({ state: 'noKey' }).includes('needs an API key'));
  assert.ok(!line(undefined).includes('Online'), 'no online line when the setting is off');
});

test('a taxpayer whose title the registry left empty is named "(no name)", offline and online (issue 15, nullableFields)', () => {
  const offline = card({ check: checkTaxId(VKN), registry: { state: 'found', taxpayer: taxpayer([alias('urn:mail:defaultpk@acme.com', 'PK')], '') } });
  assert.ok(!offline.includes('****'), offline);
  assert.match(renderedText(offline), /\(no name\)/);
  const online = card({ check: checkTaxId(VKN), registry: { state: 'noIndex' }, online: { state: 'registered', title: ' ', aliases: [] } });
  assert.match(renderedText(online), /Online: registered e-invoice user, \(no name\)/);
});

test("GİB's placeholders: the card says what they stand for instead of a check digit, and offers no online check", () => {
  const vkn = card({ check: checkTaxId('2222222222'), placeholder: { value: '2222222222', kind: 'VKN', standsFor: 'companyAbroad' } });
  const text = renderedText(vkn);
  assert.ok(text.startsWith('VKN — GİB placeholder 2222222222'), text);
  assert.ok(text.includes("GİB's placeholder for a company abroad: accepted for the buyer of an e-Arşiv, export or tax-free invoice."), text);
  assert.ok(!text.includes('should be'), 'no check digit advice for a placeholder');
  assert.deepEqual(links(vkn).map((l) => l.command), [CARD_COMMANDS.copy]);
  const tckn = renderedText(card({ check: checkTaxId('11111111111'), placeholder: { value: '11111111111', kind: 'TCKN', standsFor: 'foreignOrUnidentifiedPerson' } }));
  assert.ok(tckn.startsWith('TCKN — GİB placeholder 11111111111') && tckn.includes('foreign or unidentified person'), tckn);
});

test('a card reads in order for a screen reader: what the number is, why, the registry, the online answer, then the actions; one paragraph each, no table or heading', () => {
  const t = taxpayer([alias('urn:mail:defaultpk@acme.com.tr', 'PK')]);
  const md = card({ check: checkTaxId(VKN), registry: { state: 'found', taxpayer: t }, online: { state: 'registered', title: 'ACME', aliases: ['urn:mail:a@b.tr'] } });
  const html = markdown.render(md);
  assert.ok(!/<table|<h\d|<li/.test(html), html);
  const text = renderedText(md);
  const order = ['VKN', VKN, 'ACME Yazılım A.Ş.', 'Registered e-invoice user.', 'Online: registered e-invoice user', 'Check online', 'Copy'].map((part) => text.indexOf(part));
  assert.ok(order.every((at) => at >= 0), `${JSON.stringify(order)} in ${text}`);
  assert.deepEqual(order, [...order].sort((a, b) => a - b), `read out of order: ${text}`);
  const invalid = renderedText(card({ check: checkTaxId(VKN.slice(0, 9) + String((Number(VKN[9]) + 1) % 10)) }));
  assert.ok(invalid.indexOf('invalid') < invalid.indexOf('the 10th digit should be') && invalid.indexOf('the 10th digit should be') < invalid.indexOf('Copy'), invalid);
});
