// The customer import's narrowing down over real HTTP against the sandbox: a batch refused with an
// answer that names no row (customerBatchStatus=400unnamed) is halved until each bad row is sent
// alone; one whose answer names its bad rows sends the rest again together; a row whose tax number
// another customer holds is sent again alone. Each test follows every POST the import makes.

import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, createCustomersInBatches } from '../../../src/api';
import type { CustomerDto, NilveraClient } from '../../../src/api';
import type { CustomerImportReport } from '../../../src/api/bulk';
import { completeVkn } from '../../../src/domain/taxId';
import { api as raw, startTestSandbox, type SandboxHandle } from '../../support/sandbox';

/** More POSTs than any of these imports needs: past it the import is cancelled, so a loop fails the test instead of hanging it. */
const POST_LIMIT = 20;

/** Valid VKNs that no customer of this sandbox holds. */
function freshVkns(n: number, salt: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) out.push(completeVkn(String(840_000_000 - salt * 1_000 - i).padStart(9, '0')));
  return out;
}

/** The same tax number with a wrong check digit. */
function badChecksum(taxNumber: string): string {
  return taxNumber.slice(0, 9) + String((Number(taxNumber[9]) + 1) % 10);
}

interface Post {
  /** The rows sent, by their position in the import. */
  rows: number[];
  ok: boolean;
}

/** Imports `rows` one batch at a time, recording every POST by the positions of the rows it carried. */
async function importFollowed(client: NilveraClient, rows: CustomerDto[], batchSize: number): Promise<{ report: CustomerImportReport; posts: Post[] }> {
  const posts: Post[] = [];
  const stop = new AbortController();
  const customers = Object.create(client.customers) as typeof client.customers;
  customers.create = async (dtos, opts) => {
    if (posts.length >= POST_LIMIT) stop.abort();
    const post: Post = { rows: dtos.map((d) => rows.indexOf(d)), ok: false };
    posts.push(post);
    const answer = await client.customers.create(dtos, opts);
    post.ok = true;
    return answer;
  };
  const report = await createCustomersInBatches(customers, rows, { batchSize, concurrency: 1, signal: stop.signal });
  assert.ok(posts.length <= POST_LIMIT, `the import kept sending: ${posts.map((p) => `[${p.rows.join(',')}]`).join(' ')}`);
  return { report, posts };
}

async function customerCount(sb: SandboxHandle): Promise<number> {
  return ((await raw(sb, 'GET', '/__sandbox/customers/count')).json as { count: number }).count;
}

const reasons = (report: CustomerImportReport, index: number) => report.rejected.find((r) => r.index === index)?.messages.map((m) => m.description).join(' ') ?? '';

describe('customer import: narrowing a refused batch down to its bad rows', () => {
  let sb: SandboxHandle;
  let client: NilveraClient;
  before(async () => {
    sb = await startTestSandbox({ customers: 10, registry: 10, seed: 46 });
    client = createClient({ baseUrl: sb.url, getApiKey: async () => sb.keys.full, retry: { baseDelayMs: 5, maxDelayMs: 20 } });
  });
  after(() => sb.close());

  test('a refusal that names no row is halved until the bad row goes alone: it is rejected with the server\'s reason, every good row created once', async () => {
    sb.setBehaviour({ profile: 'default', quirks: { customerBatchStatus: '400unnamed', customerBatchBadRow: 'rejectAll' } });
    const rows: CustomerDto[] = freshVkns(8, 1).map((t, i) => ({ TaxNumber: t, Name: `Yarılanan ${i}` }));
    rows[5] = { TaxNumber: badChecksum(rows[5].TaxNumber as string), Name: 'Bozuk Sağlama' };
    const before = await customerCount(sb);
    const { report, posts } = await importFollowed(client, rows, 8);
    // 8 refused → 4 + 4; the second four refused → 2 + 2; [4,5] refused → 4 and 5 alone.
    assert.deepEqual(
      posts.map((p) => `${p.ok ? '✓' : '✗'}[${p.rows.join(',')}]`),
      ['✗[0,1,2,3,4,5,6,7]', '✓[0,1,2,3]', '✗[4,5,6,7]', '✗[4,5]', '✓[4]', '✗[5]', '✓[6,7]'],
    );
    assert.deepEqual(report.rejected.map((r) => [r.index, r.status]), [[5, 400]]);
    assert.match(reasons(report, 5), /not a valid VKN\/TCKN \(checksum\)/);
    assert.deepEqual(report.created.map((r) => r.index), [0, 1, 2, 3, 4, 6, 7]);
    assert.deepEqual([report.unknown, report.notSent], [[], []]);
    assert.equal(await customerCount(sb), before + 7);
  });

  test('a refusal that names its bad rows rejects them and sends the others again together, in one request', async () => {
    sb.setBehaviour({ profile: 'default', quirks: { customerBatchStatus: '400', customerBatchBadRow: 'rejectAll' } });
    const rows: CustomerDto[] = freshVkns(8, 2).map((t, i) => ({ TaxNumber: t, Name: `Birlikte ${i}` }));
    rows[2] = { TaxNumber: badChecksum(rows[2].TaxNumber as string), Name: 'Bozuk Sağlama' };
    rows[6] = { TaxNumber: rows[6].TaxNumber, Name: '' };
    const before = await customerCount(sb);
    const { report, posts } = await importFollowed(client, rows, 8);
    assert.deepEqual(posts.map((p) => `${p.ok ? '✓' : '✗'}[${p.rows.join(',')}]`), ['✗[0,1,2,3,4,5,6,7]', '✓[0,1,3,4,5,7]']);
    assert.deepEqual(report.rejected.map((r) => r.index), [2, 6]);
    assert.match(reasons(report, 2), /checksum/);
    assert.match(reasons(report, 6), /Name is required/);
    assert.deepEqual(report.created.map((r) => r.index), [0, 1, 3, 4, 5, 7]);
    assert.equal(await customerCount(sb), before + 6);
  });

  test('a row whose tax number another customer holds under another name is sent again alone, and the server\'s answer about it is its reason', async () => {
    sb.setBehaviour({ profile: 'default', quirks: { customerBatchStatus: '400unnamed', customerBatchBadRow: 'rejectAll' } });
    const held = ((await client.customers.list({ Page: 1, PageSize: 1 })).Content ?? [])[0];
    assert.ok(held?.TaxNumber && held.Name);
    const rows: CustomerDto[] = freshVkns(4, 3).map((t, i) => ({ TaxNumber: t, Name: `Yalnız ${i}` }));
    rows[2] = { TaxNumber: held.TaxNumber, Name: `${held.Name} (başka)` };
    const before = await customerCount(sb);
    const { report, posts } = await importFollowed(client, rows, 4);
    // The look-up finds row 2's tax number under another name: row 2 goes alone, the others are halved.
    assert.deepEqual(posts.map((p) => `${p.ok ? '✓' : '✗'}[${p.rows.join(',')}]`), ['✗[0,1,2,3]', '✓[0,1]', '✓[3]', '✗[2]']);
    assert.deepEqual(report.rejected.map((r) => [r.index, r.status]), [[2, 400]]);
    assert.match(reasons(report, 2), /exists/);
    assert.deepEqual(report.created.map((r) => r.index), [0, 1, 3]);
    assert.deepEqual([report.unknown, report.notSent], [[], []]);
    assert.equal(await customerCount(sb), before + 3);
    assert.equal((await client.customers.getByTaxNumber(held.TaxNumber)).Name, held.Name, 'the customer that held the tax number is unchanged');
  });
  // After a lost answer a lone row no longer takes the "refused on its first send" path: the refusal
  // must still settle it, or it would be sent again and again.
  test('a batch whose answer was lost, then refused naming no row: the bad row is rejected once alone, the others created once', async () => {
    sb.setBehaviour({ profile: 'default', quirks: { customerBatchStatus: '400unnamed', customerBatchBadRow: 'rejectAll' } });
    const rows: CustomerDto[] = freshVkns(4, 4).map((t, i) => ({ TaxNumber: t, Name: `Kayıp ${i}` }));
    rows[1] = { TaxNumber: badChecksum(rows[1].TaxNumber as string), Name: 'Bozuk Sağlama' };
    const before = await customerCount(sb);
    // The first POST's connection breaks before the server reads it: nothing stored, the answer lost.
    sb.setFaults({ queue: ['reset'], match: { method: 'POST', path: '^/general/customers$' } });
    try {
      const { report, posts } = await importFollowed(client, rows, 4);
      assert.equal(posts.filter((p) => p.rows.length === 1 && p.rows[0] === 1).length, 1, 'the bad row is sent alone once');
      assert.deepEqual(report.rejected.map((r) => r.index), [1]);
      assert.match(reasons(report, 1), /checksum/);
      assert.deepEqual(report.created.map((r) => r.index), [0, 2, 3]);
      assert.equal(await customerCount(sb), before + 3);
    } finally {
      sb.clearFaults();
    }
  });
});

// README row 3b: after a lost answer only a row whose look-up keeps failing stays unconfirmed. A
// server that keeps failing the writes (and answers the look-ups) leaves rows that are known not to
// be stored: they must say so, not "unknown". The faults come in a fixed order, so each run is the same.
describe('customer import: a server that keeps failing the writes', () => {
  let sb: SandboxHandle;
  let client: NilveraClient;
  before(async () => {
    sb = await startTestSandbox({ customers: 10, registry: 10, seed: 47 });
    client = createClient({ baseUrl: sb.url, getApiKey: async () => sb.keys.full, retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 2 } });
  });
  after(() => sb.close());

  test('rows the look-ups find absent after every send failed are reported not stored (rejected), none unknown, nothing stored', async () => {
    sb.setBehaviour({ profile: 'default', quirks: {} });
    const rows: CustomerDto[] = freshVkns(3, 5).map((t, i) => ({ TaxNumber: t, Name: `Hep Düşen ${i}` }));
    const before = await customerCount(sb);
    // Six sends, each answer lost in another way before the write; the look-ups are never faulted.
    sb.setFaults({ queue: ['500', 'reset', '503', 'malformed', '429', 'truncate'], retryAfterSeconds: 0, phase: 'before', match: { method: 'POST', path: '^/general/customers$' } });
    sb.resetRequestLog();
    try {
      const { report, posts } = await importFollowed(client, rows, 3);
      assert.deepEqual(posts.map((p) => `${p.ok ? '✓' : '✗'}[${p.rows.join(',')}]`), Array(6).fill('✗[0,1,2]'));
      const lookups = sb.requestLog().filter((r) => /GetCustomerInfo/i.test(r.path));
      assert.equal(lookups.length, 18, 'each of the 6 lost answers is followed by one look-up per row');
      assert.ok(lookups.every((r) => r.status === 404 && !r.fault), 'every look-up answered: not stored');
      assert.deepEqual(report.unknown.map((r) => `${r.index} ${r.error.message}`), [], "no row is unconfirmed: the look-ups answered");
      assert.deepEqual(report.rejected.map((r) => r.index), [0, 1, 2]);
      assert.match(reasons(report, 0), /not stored.*6 sends/);
      assert.deepEqual([report.created, report.notSent], [[], []]);
      assert.equal(await customerCount(sb), before);
    } finally {
      sb.clearFaults();
    }
  });

  test('a row whose look-up keeps failing too stays unknown (it may have been stored)', async () => {
    sb.setBehaviour({ profile: 'default', quirks: {} });
    const rows: CustomerDto[] = freshVkns(2, 6).map((t, i) => ({ TaxNumber: t, Name: `Belirsiz ${i}` }));
    sb.setFaults({ rates: { '500': 1 }, phase: 'before', match: { path: '^/general/customers' } });
    try {
      const { report } = await importFollowed(client, rows, 2);
      assert.deepEqual(report.unknown.map((r) => r.index), [0, 1]);
      assert.deepEqual([report.created, report.rejected, report.notSent], [[], [], []]);
    } finally {
      sb.clearFaults();
    }
  });
});
