// Contract test: the client's requests against a mock server generated from the platform's own
// OpenAPI export (test/fixtures/general.swagger.json, a copy of the shared reference), Stoplight Prism in mock mode with
// request validation, started here on loopback. Prism reports request violations in the
// `sl-violations` header (and answers 400/401/422); every operation the export lists must pass.
// The export is an older snapshot: the operations it lacks are marked `notInOlderExport` in the table
// (src/api/operations.ts) and checked as lacking. Each operation of the table is one case here.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createClient, NilveraApiError } from '../../../src/api';
import type { FetchLike, NilveraClient } from '../../../src/api';
import { startPrismMock, type PrismMock } from '../../support/prismMock';
import { isPlainRead, OPERATION_IDS, OPERATIONS, type OperationId, type OperationSpec, type PlainReadId } from '../../../src/api/operations';

const root = path.resolve(__dirname, '../../../..');
const specPath = process.env.NILVERA_SWAGGER ?? path.resolve(root, 'test/fixtures/general.swagger.json');
// Prism's own script, run by this Node (.bin/prism is a shell script; prism.cmd on Windows).
const prismScript = path.join(root, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

interface Exchange {
  method: string;
  url: string;
  status: number;
  violations: unknown[];
}

type Case = (c: NilveraClient) => Promise<unknown>;
/**
 * A valid call of each operation of the table (src/api/operations.ts), which gives its method and path.
 * A plain read (a GET of a fixed path) is called through `client.read(id)` (caseOf) unless it has a case here.
 */
const CASES: Record<Exclude<OperationId, PlainReadId>, Case> & Partial<Record<PlainReadId, Case>> = {
  'company.update': (c) => c.company.update({ City: 'Ankara', District: 'Çankaya', PhoneNumber: '03121234567', PaymentMeansCode: 'HAVALE_EFT', Email: null }),
  'certificates.get': (c) => c.certificates.get('AB 12 ğ#'), // a serial with a slash is looked up in the list (specSilent.ts)
  'certificates.create': (c) => c.certificates.create({ SerialNo: 'ABC123', Type: 'EIMZA', StartDate: '2026-01-01T00:00:00+03:00', EndDate: '2027-01-01T00:00:00Z', Password: 'x', Description: 'Yedek e-imza' }),
  'certificates.update': (c) => c.certificates.update({ ID: 1, SerialNo: 'ABC123', Type: 'MALIMUHUR', StartDate: null, EndDate: null, Password: null, Description: null }),
  'certificates.delete': (c) => c.certificates.delete(12),
  'identifications.create': (c) => c.identifications.create('MERSISNO', '0123456789012345'),
  'identifications.delete': (c) => c.identifications.delete(3),
  'customers.list': (c) => c.customers.list({ Search: 'Müşteri A', Page: 1, PageSize: 30, SortColumn: 'Name', SortType: 'ASC' }),
  'customers.create': (c) => c.customers.create([{ TaxNumber: '1234567890', Name: 'Müşteri A.Ş.', City: 'İzmir', IsExport: false }, { TaxNumber: '10000000146', Name: 'Ayşe Yılmaz' }]),
  'customers.update': (c) => c.customers.update({ ID: 5, TaxNumber: '1234567890', Name: 'Güncel Ünvan', IsExport: true }),
  'customers.delete': (c) => c.customers.delete(5),
  'customers.deleteBulk': (c) => c.customers.deleteBulk([1, 2, 3]),
  'customers.search': (c) => c.customers.search('Şirket A/Ş #1'),
  'customers.getByTaxNumber': (c) => c.customers.getByTaxNumber('1234567890'),
  'registry.list': (c) => c.registry.list({ Page: 2, PageSize: 50 }),
  'registry.search': (c) => c.registry.search('Öztürk', 'Invoice'),
  'registry.info': (c) => c.registry.info('1729171602', 'DespatchAdvice'),
  'registry.infoBulk': (c) => c.registry.infoBulk(['1729171602', '4540536920'], 'Invoice'),
  'registry.checkTaxNumber': (c) => c.registry.checkTaxNumber('1729171602', 'Invoice'),
  'registry.checkName': (c) => c.registry.checkName('Çelik Ltd', 'Invoice'),
  'registry.downloadList': (c) => c.registry.downloadList('PK', 'Invoice', { kind: 'buffer' }),
  'mailing.setChat': (c) => c.mailing.setChat(true),
  // Newer than the export (notInOlderExport in the table): no such operation in it (checked below).
  'documents.create': (c) => c.documents.create({ Name: 'a', FileType: 'pdf', Base64String: 'QQ==' }),
  'documents.delete': (c) => c.documents.delete(1),
  'customers.get': (c) => c.customers.get(1),
  'taxOffice.update': (c) => c.taxOffice.update('u', 'p'),
  'mailing.setEmail': (c) => c.mailing.setEmail({ IsActive: true }),
  'ebill.updateTemplate': (c) => c.ebill.updateTemplate({ ID: 1, IsDefault: true }),
  'evoucher.updateSeries': (c) => c.evoucher.updateSeries({ ID: 1, IsActive: true }),
};

let prism: PrismMock | undefined;
let baseUrl = '';
const exchanges: Exchange[] = [];

before(async () => {
  assert.ok(fs.existsSync(specPath), `the OpenAPI export is missing: ${specPath} (set NILVERA_SWAGGER)`);
  assert.ok(fs.existsSync(prismScript), `${prismScript} is missing: run npm ci`);
  prism = await startPrismMock([process.execPath, prismScript], specPath);
  baseUrl = prism.url;
});

after(() => prism?.stop());

/** node-fetch (the client's own transport) with every exchange and its violations recorded. */
async function recordingFetch(): Promise<FetchLike> {
  const mod = (await import('node-fetch')) as unknown as { default: FetchLike | { default: FetchLike } };
  const nodeFetch = typeof mod.default === 'function' ? mod.default : mod.default.default;
  return async (url, init) => {
    const res = await nodeFetch(url, init);
    const header = res.headers.get('sl-violations');
    exchanges.push({ method: init.method, url, status: res.status, violations: header ? (JSON.parse(header) as unknown[]) : [] });
    return res;
  };
}

const inExport = (id: OperationId) => !(OPERATIONS[id] as OperationSpec).notInOlderExport && OPERATIONS[id].path.startsWith('/general/');
/** The path template as a pattern: each `{Name}` one segment that is not empty. */
const pathPattern = (template: string) => new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`, 'i');

function caseOf(id: OperationId): Case | undefined {
  return (CASES as Partial<Record<OperationId, Case>>)[id] ?? (isPlainRead(id) ? (c) => c.read(id) : undefined);
}

test('a contract case for every operation of the table (its own, or client.read for a plain read), and no case for anything else', () => {
  assert.deepEqual(OPERATION_IDS.filter((id) => !caseOf(id)), []);
  assert.deepEqual(Object.keys(CASES).filter((id) => !(OPERATION_IDS as string[]).includes(id)), []);
});

test('the export lacks exactly the operations of the table marked newer (and those of /ebill, /evoucher)', () => {
  const spec = JSON.parse(fs.readFileSync(specPath, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  const lacking = OPERATION_IDS.filter((id) => !spec.paths[OPERATIONS[id].path]?.[OPERATIONS[id].method.toLowerCase()]);
  assert.deepEqual(lacking.sort(), OPERATION_IDS.filter((id) => !inExport(id)).sort());
});

for (const id of OPERATION_IDS) {
  const { method, path: template } = OPERATIONS[id];
  const inIt = inExport(id);
  test(`${id}: one ${method} of ${template}${inIt ? ', passing Prism request validation' : ' (not in the export: the request only)'}`, async () => {
    const c = createClient({ baseUrl, getApiKey: async () => 'CONTRACT-TEST-KEY', retry: { retries: 0 }, fetch: await recordingFetch() });
    exchanges.length = 0;
    let failure: unknown;
    try {
      await caseOf(id)!(c);
    } catch (e) {
      failure = e;
    }
    assert.equal(exchanges.length, 1, 'one request');
    const [x] = exchanges;
    assert.equal(x.method, method);
    assert.match(new URL(x.url).pathname, pathPattern(template));
    if (!inIt) return; // Prism answers 404 for a path its export lacks.
    // The mock's generated body for the ZIP download is not base64 of a ZIP; only the request matters here.
    const mockZip = failure instanceof NilveraApiError && failure.kind === 'malformed' && OPERATIONS[id].answer === 'zip';
    if (failure !== undefined && !mockZip) assert.fail(`${id}: ${failure instanceof Error ? failure.message : String(failure)}`);
    // Violations located in the response are the mock's own generated data, not the client's doing.
    const requestViolations = x.violations.filter((v) => (v as { location?: string[] }).location?.[0] === 'request');
    assert.deepEqual(requestViolations, []);
    assert.ok(x.status < 400, `${x.method} ${x.url} -> ${x.status}`);
  });
}

test('the validator is live: a request that breaks the export is reported', async () => {
  const broken: FetchLike = async (url, init) => (await recordingFetch())(url.replace('Name=MERSISNO', 'Name=NOSUCHTYPE'), init);
  const c = createClient({ baseUrl, getApiKey: async () => 'K', retry: { retries: 0 }, fetch: broken });
  exchanges.length = 0;
  await assert.rejects(c.identifications.create('MERSISNO', '1'), (e: unknown) => e instanceof NilveraApiError && e.status === 422);
  assert.ok(exchanges[0].violations.length > 0);
  const noKey: FetchLike = async (url, init) => (await recordingFetch())(url, { ...init, headers: { Accept: 'application/json' } });
  await assert.rejects(createClient({ baseUrl, getApiKey: async () => 'K', fetch: noKey }).account.alerts(), (e: unknown) => e instanceof NilveraApiError && e.kind === 'auth');
});
