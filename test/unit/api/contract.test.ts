// Contract test: the client's requests against a mock server generated from the platform's own
// OpenAPI export (test/fixtures/general.swagger.json, a copy of the shared reference), Stoplight Prism in mock mode with
// request validation, started here on loopback. Prism reports request violations in the
// `sl-violations` header (and answers 400/401/422); every operation the export lists must pass.
// The export is an older snapshot: the operations it lacks are listed below and checked as lacking.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { createClient, NilveraApiError } from '../../../src/api';
import type { FetchLike, NilveraClient } from '../../../src/api';

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

/** Each client operation with the export's method and path template, and a valid call. */
const OPERATIONS: Array<{ name: string; method: string; path: string; call: (c: NilveraClient) => Promise<unknown> }> = [
  { name: 'account.alerts', method: 'get', path: '/general/Alerts', call: (c) => c.account.alerts() },
  { name: 'account.campaigns', method: 'get', path: '/general/Campaigns', call: (c) => c.account.campaigns() },
  { name: 'account.credits', method: 'get', path: '/general/Credits', call: (c) => c.account.credits() },
  { name: 'account.exchangeRate', method: 'get', path: '/general/ExchangeRate', call: (c) => c.account.exchangeRate() },
  { name: 'company.get', method: 'get', path: '/general/Company', call: (c) => c.company.get() },
  {
    name: 'company.update',
    method: 'put',
    path: '/general/Company',
    call: (c) => c.company.update({ City: 'Ankara', District: 'Çankaya', PhoneNumber: '03121234567', PaymentMeansCode: 'HAVALE_EFT', Email: null }),
  },
  { name: 'company.modules', method: 'get', path: '/general/Company/Modules', call: (c) => c.company.modules() },
  { name: 'company.list', method: 'get', path: '/general/Company/List', call: (c) => c.company.list() },
  { name: 'certificates.list', method: 'get', path: '/general/Company/Certificate', call: (c) => c.certificates.list() },
  { name: 'certificates.get', method: 'get', path: '/general/Company/Certificate/{SerialNumber}', call: (c) => c.certificates.get('AB 12 ğ#') }, // a serial with a slash is looked up in the list (specSilent.ts)
  {
    name: 'certificates.create',
    method: 'post',
    path: '/general/Company/Certificate',
    call: (c) => c.certificates.create({ SerialNo: 'ABC123', Type: 'EIMZA', StartDate: '2026-01-01T00:00:00+03:00', EndDate: '2027-01-01T00:00:00Z', Password: 'x', Description: 'Yedek e-imza' }),
  },
  {
    name: 'certificates.update',
    method: 'put',
    path: '/general/Company/Certificate',
    call: (c) => c.certificates.update({ ID: 1, SerialNo: 'ABC123', Type: 'MALIMUHUR', StartDate: null, EndDate: null, Password: null, Description: null }),
  },
  { name: 'certificates.delete', method: 'delete', path: '/general/Company/Certificate/{ID}', call: (c) => c.certificates.delete(12) },
  { name: 'identifications.list', method: 'get', path: '/general/CompanyIdentification', call: (c) => c.identifications.list() },
  { name: 'identifications.create', method: 'post', path: '/general/CompanyIdentification', call: (c) => c.identifications.create('MERSISNO', '0123456789012345') },
  { name: 'identifications.delete', method: 'delete', path: '/general/CompanyIdentification/{ID}', call: (c) => c.identifications.delete(3) },
  {
    name: 'customers.list',
    method: 'get',
    path: '/general/Customers',
    call: (c) => c.customers.list({ Search: 'Müşteri A', Page: 1, PageSize: 30, SortColumn: 'Name', SortType: 'ASC' }),
  },
  {
    name: 'customers.create',
    method: 'post',
    path: '/general/Customers',
    call: (c) => c.customers.create([{ TaxNumber: '1234567890', Name: 'Müşteri A.Ş.', City: 'İzmir', IsExport: false }, { TaxNumber: '10000000146', Name: 'Ayşe Yılmaz' }]),
  },
  { name: 'customers.update', method: 'put', path: '/general/Customers', call: (c) => c.customers.update({ ID: 5, TaxNumber: '1234567890', Name: 'Güncel Ünvan', IsExport: true }) },
  { name: 'customers.delete', method: 'delete', path: '/general/Customers/{ID}', call: (c) => c.customers.delete(5) },
  { name: 'customers.deleteBulk', method: 'delete', path: '/general/Customers/Bulk', call: (c) => c.customers.deleteBulk([1, 2, 3]) },
  { name: 'customers.search', method: 'get', path: '/general/Customers/Search/{searchText}', call: (c) => c.customers.search('Şirket A/Ş #1') },
  { name: 'customers.getByTaxNumber', method: 'get', path: '/general/Customers/GetCustomerInfo/{TaxNumber}', call: (c) => c.customers.getByTaxNumber('1234567890') },
  { name: 'registry.list', method: 'get', path: '/general/GlobalCompany', call: (c) => c.registry.list({ Page: 2, PageSize: 50 }) },
  { name: 'registry.search', method: 'get', path: '/general/GlobalCompany/Search/{searchText}', call: (c) => c.registry.search('Öztürk', 'Invoice') },
  { name: 'registry.info', method: 'get', path: '/general/GlobalCompany/GetGlobalCustomerInfo/{TaxNumber}', call: (c) => c.registry.info('1729171602', 'DespatchAdvice') },
  { name: 'registry.infoBulk', method: 'post', path: '/general/GlobalCompany/GetGlobalCustomerInfo', call: (c) => c.registry.infoBulk(['1729171602', '4540536920'], 'Invoice') },
  { name: 'registry.checkTaxNumber', method: 'get', path: '/general/GlobalCompany/Check/TaxNumber/{TaxNumber}', call: (c) => c.registry.checkTaxNumber('1729171602', 'Invoice') },
  { name: 'registry.checkName', method: 'get', path: '/general/GlobalCompany/Check/Name/{Name}', call: (c) => c.registry.checkName('Çelik Ltd', 'Invoice') },
  {
    name: 'registry.downloadList',
    method: 'get',
    path: '/general/GlobalCompany/{AliasType}/{GlobalUserType}',
    call: (c) => c.registry.downloadList('PK', 'Invoice', { kind: 'buffer' }),
  },
  { name: 'mailing.settings', method: 'get', path: '/general/Mailing/Setting', call: (c) => c.mailing.settings() },
  { name: 'mailing.setChat', method: 'post', path: '/general/Mailing/Whatsapp/Setting/{IsActive}', call: (c) => c.mailing.setChat(true) },
  // Newer than the export: no such operation in it (checked below).
  { name: 'documents.list', method: 'get', path: '/general/CompanyDocuments', call: (c) => c.documents.list() },
  { name: 'documents.create', method: 'post', path: '/general/CompanyDocuments', call: (c) => c.documents.create({ Name: 'a', FileType: 'pdf', Base64String: 'QQ==' }) },
  { name: 'documents.delete', method: 'delete', path: '/general/CompanyDocuments/{ID}', call: (c) => c.documents.delete(1) },
  { name: 'customers.get', method: 'get', path: '/general/Customers/{ID}', call: (c) => c.customers.get(1) },
  { name: 'taxOffice.get', method: 'get', path: '/general/InteractiveTaxOffice', call: (c) => c.taxOffice.get() },
  { name: 'taxOffice.update', method: 'put', path: '/general/InteractiveTaxOffice', call: (c) => c.taxOffice.update('u', 'p') },
  { name: 'mailing.setEmail', method: 'post', path: '/general/Mailing/Email/Setting', call: (c) => c.mailing.setEmail({ IsActive: true }) },
  { name: 'ebill.updateTemplate', method: 'put', path: '/ebill/Templates', call: (c) => c.ebill.updateTemplate({ ID: 1, IsDefault: true }) },
  { name: 'evoucher.updateSeries', method: 'put', path: '/evoucher/Series', call: (c) => c.evoucher.updateSeries({ ID: 1, IsActive: true }) },
];

/** Operations of the specification that the older export does not have. */
const NOT_IN_EXPORT = [
  'documents.list',
  'documents.create',
  'documents.delete',
  'customers.get',
  'taxOffice.get',
  'taxOffice.update',
  'mailing.setEmail',
  'ebill.updateTemplate',
  'evoucher.updateSeries',
];

let prism: ChildProcess | undefined;
let prismOutput = '';
let baseUrl = '';
const exchanges: Exchange[] = [];

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

before(async () => {
  assert.ok(fs.existsSync(specPath), `the OpenAPI export is missing: ${specPath} (set NILVERA_SWAGGER)`);
  assert.ok(fs.existsSync(prismScript), `${prismScript} is missing: run npm ci`);
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  prism = spawn(process.execPath, [prismScript, 'mock', '-h', '127.0.0.1', '-p', String(port), specPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  prism.stdout?.on('data', (d: Buffer) => (prismOutput += d.toString()));
  prism.stderr?.on('data', (d: Buffer) => (prismOutput += d.toString()));
  const started = Date.now();
  while (!/Prism is listening/.test(prismOutput)) {
    if (prism.exitCode !== null || Date.now() - started > 60_000) assert.fail(`prism did not start:\n${prismOutput.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
});

after(async () => {
  if (prism && prism.exitCode === null) {
    const exited = new Promise((r) => prism!.once('exit', r));
    prism.kill('SIGTERM');
    await exited;
  }
});

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

test('the list of operations is the 41 of the specification, and the export lacks exactly the listed ones', () => {
  assert.equal(OPERATIONS.length, 41);
  assert.equal(new Set(OPERATIONS.map((o) => o.name)).size, 41);
  const spec = JSON.parse(fs.readFileSync(specPath, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  const missing = OPERATIONS.filter((o) => !spec.paths[o.path]?.[o.method]).map((o) => o.name);
  assert.deepEqual(missing.sort(), [...NOT_IN_EXPORT].sort());
});

test('every request for an operation the export lists passes Prism request validation', async () => {
  const c = createClient({ baseUrl, getApiKey: async () => 'CONTRACT-TEST-KEY', retry: { retries: 0 }, fetch: await recordingFetch() });
  const problems: string[] = [];
  for (const op of OPERATIONS.filter((o) => !NOT_IN_EXPORT.includes(o.name))) {
    exchanges.length = 0;
    try {
      await op.call(c);
    } catch (e) {
      // The mock's generated body for the ZIP download is not base64 of a ZIP; only the request matters here.
      if (!(e instanceof NilveraApiError && e.kind === 'malformed' && op.name === 'registry.downloadList')) {
        problems.push(`${op.name}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    assert.equal(exchanges.length, 1, op.name);
    const [x] = exchanges;
    // Violations located in the response are the mock's own generated data, not the client's doing.
    const requestViolations = x.violations.filter((v) => (v as { location?: string[] }).location?.[0] === 'request');
    if (requestViolations.length > 0 || x.status >= 400) problems.push(`${op.name} ${x.method} ${x.url} -> ${x.status} ${JSON.stringify(requestViolations)}`);
  }
  assert.deepEqual(problems, []);
});

test('the validator is live: a request that breaks the export is reported', async () => {
  const broken: FetchLike = async (url, init) => (await recordingFetch())(url.replace('Name=MERSISNO', 'Name=NOSUCHTYPE'), init);
  const c = createClient({ baseUrl, getApiKey: async () => 'K', retry: { retries: 0 }, fetch: broken });
  exchanges.length = 0;
  await assert.rejects(c.identifications.create('MERSISNO', '1'), (e: unknown) => e instanceof NilveraApiError && e.status === 422);
  assert.ok(exchanges[0].violations.length > 0);
  const noKey: FetchLike = async (url, init) => (await recordingFetch())(url, { ...init, headers: { Accept: 'application/json' } });
  await assert.rejects(createClient({ baseUrl, getApiKey: async () => 'K', fetch: noKey }).account.alerts(), (e: unknown) => e instanceof NilveraApiError && e.kind === 'auth');
});
