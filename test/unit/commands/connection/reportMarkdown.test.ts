// Check Connection's report with a hostile server's answers (issue 37 row 8): a Content-Type it
// chooses, JSON keys and date-like strings that go on with record text. Rendered as VS Code's
// Markdown preview renders it (HTML and linkify on), nothing is live and no record text shows.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckRun, ProbeAnswer, ProbeResult } from '../../../../src/commands/connection/probes';
import { readVerdicts, readListFindings } from '../../../../src/commands/connection/verdicts';
import { buildReport } from '../../../../src/commands/connection/report';
import type { Translator } from '../../../../src/domain/taxIdWording';
import { liveMarkup, renderPreview } from '../../../support/renderMarkdown';

const english: Translator = { t: (message, ...args) => message.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)])) };
const context = { environmentLabel: 'Custom URL', origin: 'https://api.example', finishedAt: '2026-11-29T03:00:00Z', extensionVersion: '0.1.0', vscodeVersion: '1.100' };

const RECORD_TEXT = 'Gizli Müşteri Kaydı';
const LINK = '[tıkla](https://evil.example/steal)';
const IMAGE = '![](https://evil.example/pixel.png)';

function json(value: unknown, contentType = 'application/json'): ProbeAnswer {
  const text = JSON.stringify(value);
  return { status: 200, ms: 3, contentType, bytes: Buffer.byteLength(text), truncated: false, body: { kind: 'json', value } };
}

function report(results: ProbeResult[]): string {
  const run: CheckRun = { results, facts: {} };
  return buildReport(context, results, readVerdicts(run), english, readListFindings(run));
}

describe('Check Connection report: server text never becomes markup or shows a record', () => {
  test('a Content-Type with a link and an image is not live in the preview', () => {
    const hostile = `text/html${IMAGE}${LINK}; charset=utf-8`;
    const md = report([{ id: 'company', method: 'GET', template: '/general/Company', answer: json({ Name: 'x' }, hostile) }]);
    const html = renderPreview(md);
    assert.deepEqual(liveMarkup(html), [], html);
    assert.ok(!md.includes('evil.example'), 'a content type that is not type/subtype is not repeated');
    assert.match(md, /\| `GET \/general\/Company` \| 200 `an unusual content type \(not shown\)` \|/);
  });

  test('a plain media type is shown, as code', () => {
    const md = report([{ id: 'company', method: 'GET', template: '/general/Company', answer: json({ Name: 'x' }, 'application/vnd.nilvera+json; charset=utf-8') }]);
    assert.match(md, /\| 200 `application\/vnd\.nilvera\+json` \|/);
  });

  test('a string that starts like a date and goes on with record text is "not a date", never echoed', () => {
    const date = `2024-01-15T10:30 ${RECORD_TEXT} ${IMAGE}`;
    const md = report([{ id: 'company', method: 'GET', template: '/general/Company', answer: json({ Name: 'x', CreatedDate: date }) }]);
    assert.ok(!md.includes('Gizli') && !md.includes('Müşteri') && !md.includes('evil.example'), md);
    assert.match(md, /`dateFormat` \| \*\*differs\*\*: `a value that starts like a date-time but is not a date \(not shown\)`/);
    assert.deepEqual(liveMarkup(renderPreview(md)), []);
  });

  test('an ISO date-time of another form shows its form only (digits as 9)', () => {
    const md = report([{ id: 'company', method: 'GET', template: '/general/Company', answer: json({ CreatedDate: '2024-01-15T10:30:00.123Z' }) }]);
    assert.match(md, /\*\*differs\*\*: `date-times like 9999-99-99T99:99:99\.999Z`/);
  });

  test('a date-shaped value that is no real date (month 13) is not a date either', () => {
    const md = report([{ id: 'company', method: 'GET', template: '/general/Company', answer: json({ CreatedDate: '2024-13-45T10:30:00' }) }]);
    assert.match(md, /not a date \(not shown\)/);
  });

  test('a failure reason and a body of text stay code', () => {
    const md = report([
      { id: 'company', method: 'GET', template: '/general/Company', answer: { ms: 1, bytes: 0, truncated: false, body: { kind: 'empty' }, failure: 'ERR_CROSS_ORIGIN_REDIRECT' } },
      { id: 'credits', method: 'GET', template: '/general/Credits', answer: { status: 200, ms: 1, contentType: 'text/plain', bytes: 40, truncated: false, body: { kind: 'text', text: `${LINK} ${IMAGE}` } } },
    ]);
    assert.deepEqual(liveMarkup(renderPreview(md)), []);
    assert.ok(!md.includes('evil.example'));
    assert.match(md, /`no answer \(ERR_CROSS_ORIGIN_REDIRECT\)`/);
  });
});
