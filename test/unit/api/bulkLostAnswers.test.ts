// The customer import's resolution of lost answers, over real HTTP against the sandbox, with
// deterministic fault sequences (the sandbox's fault queue), each request of the import counted:
// - a server that stores a row only after the client has looked it up (fault phase `late`): the row
//   this import created is reported created, never "rejected: already exists";
// - a row whose answer is lost every time is sent exactly MAX_SENDS (6) times, then reported unknown;
// - a failed look-up is asked three times in a row before the row waits for a later round.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, createCustomersInBatches } from '../../../src/api';
import type { CustomerDto, NilveraClient } from '../../../src/api';
import type { CustomerImportReport } from '../../../src/api/bulk';
import { completeVkn } from '../../../src/domain/taxId';
import { startTestSandbox, type SandboxHandle } from '../../support/sandbox';

const CUSTOMERS = '^/general/Customers$';
const LOOKUP = 'GetCustomerInfo';

/** Valid VKNs no customer of this sandbox holds (each test its own range). */
function freshVkns(n: number, salt: number): string[] {
  return Array.from({ length: n }, (_, i) => completeVkn(String(830_000_000 - salt * 1_000 - i)));
}

describe('customer import: answers lost, deterministically', () => {
  let sb: SandboxHandle;
  let client: NilveraClient;
  before(async () => {
    sb = await startTestSandbox({ customers: 5, seed: 38 });
    client = createClient({ baseUrl: sb.url, getApiKey: async () => sb.keys.full, retry: { baseDelayMs: 5, maxDelayMs: 20 } });
  });
  after(() => sb.close());

  /** The import's requests as the sandbox saw them: "POST 500", "GET 404"… (lookups and creates only). */
  const seen = () =>
    sb
      .requestLog()
      .filter((r) => (r.method === 'POST' && /^\/general\/Customers$/i.test(r.path)) || r.path.includes(LOOKUP))
      .map((r) => `${r.method} ${r.fault ? `${r.fault.kind}/${r.fault.phase}` : r.status}`);

  async function run(rows: CustomerDto[], setup: () => void): Promise<{ report: CustomerImportReport; requests: string[] }> {
    sb.resetRequestLog();
    setup();
    try {
      const report = await createCustomersInBatches(client.customers, rows, { batchSize: rows.length, concurrency: 1 });
      return { report, requests: seen() };
    } finally {
      sb.clearFaults();
    }
  }

  const outcome = (r: CustomerImportReport) => ({
    created: r.created.map((x) => x.index),
    rejected: r.rejected.map((x) => `${x.index}: ${x.messages.map((m) => m.description).join(' ')}`),
    unknown: r.unknown.map((x) => x.index),
    notSent: r.notSent.map((x) => x.index),
  });

  for (const duplicateStatus of ['422', '409'] as const) {
    test(`a server that stores the row only after the look-up (duplicates answered ${duplicateStatus}): the row this import created is created, not "rejected: already exists"`, async () => {
      sb.setBehaviour({ profile: 'default', quirks: { duplicateStatus } });
      const [taxNumber] = freshVkns(1, duplicateStatus === '422' ? 1 : 2);
      const rows: CustomerDto[] = [{ TaxNumber: taxNumber, Name: `Geç Kayıt ${duplicateStatus} A.Ş.` }];
      const { report, requests } = await run(rows, () => sb.setFaults({ queue: ['500'], phase: 'late', match: { method: 'POST', path: CUSTOMERS } }));
      // The first answer is lost; the look-up finds nothing, then the server stores the row; the second
      // send is refused as a duplicate; a look-up finds the row under its name: it is this import's.
      assert.equal(requests[0], 'POST 500/late');
      assert.ok(/^GET \d+$/.test(requests[1]) && !requests[1].endsWith(' 200'), `the first look-up found nothing: ${requests.join(', ')}`);
      assert.match(requests[2], /^POST 4\d\d$/, `the second send is refused as a duplicate: ${requests.join(', ')}`);
      assert.deepEqual(outcome(report), { created: [0], rejected: [], unknown: [], notSent: [] });
      const stored = await client.customers.getByTaxNumber(taxNumber);
      assert.equal(stored.Name, rows[0].Name);
    });
  }

  test('a batch stored only after the look-up: every row created once, none rejected, nothing stored twice', async () => {
    sb.setBehaviour({ profile: 'default', quirks: { duplicateStatus: '409' } });
    const rows: CustomerDto[] = freshVkns(4, 3).map((t, i) => ({ TaxNumber: t, Name: `Geç Toplu ${i}` }));
    const { report, requests } = await run(rows, () => sb.setFaults({ queue: ['500'], phase: 'late', match: { method: 'POST', path: CUSTOMERS } }));
    assert.equal(requests[0], 'POST 500/late');
    assert.deepEqual(outcome(report), { created: [0, 1, 2, 3], rejected: [], unknown: [], notSent: [] });
    for (const r of rows) assert.equal((await client.customers.getByTaxNumber(r.TaxNumber as string)).Name, r.Name);
  });

  test('a row whose answer is lost every time is sent exactly 6 times (the cap), looked up after each, then rejected as not stored (its look-ups answered)', async () => {
    sb.setBehaviour({ profile: 'default' });
    const rows: CustomerDto[] = freshVkns(1, 4).map((t) => ({ TaxNumber: t, Name: 'Hiç Yanıt Yok Ltd.' }));
    const { report, requests } = await run(rows, () => sb.setFaults({ queue: Array(20).fill('500'), match: { method: 'POST', path: CUSTOMERS } }));
    const posts = requests.filter((r) => r.startsWith('POST'));
    const lookups = requests.filter((r) => r.startsWith('GET'));
    assert.deepEqual(posts, Array(6).fill('POST 500/before'), requests.join(', '));
    assert.equal(lookups.length, 6, 'one look-up after each lost answer');
    assert.ok(lookups.every((r) => !r.endsWith(' 200')), 'each look-up found nothing');
    // The look-ups answered that nothing was stored, so the row is not "unknown" (README's row 3b): it
    // goes to the rejected file with the server's last error, to be imported again.
    assert.equal(outcome(report).unknown.length, 0);
    assert.equal(report.rejected.length, 1);
    assert.match(outcome(report).rejected[0], /^0: not stored: the server failed this row's 6 sends/);
  });

  test('a failed look-up is asked three times in a row: two failures then an answer, and the row is sent again once', async () => {
    sb.setBehaviour({ profile: 'default' });
    const rows: CustomerDto[] = freshVkns(1, 5).map((t) => ({ TaxNumber: t, Name: 'Üç Kez Sorulan A.Ş.' }));
    // One queue for every request, in the order the import makes them: the create, then its look-ups.
    const { report, requests } = await run(rows, () => sb.setFaults({ queue: ['500', '500', '500'] }));
    assert.deepEqual(requests.slice(0, 4), ['POST 500/before', 'GET 500/before', 'GET 500/before', requests[3]]);
    assert.ok(/^GET \d+$/.test(requests[3]), `the third look-up is answered: ${requests[3]}`);
    assert.deepEqual(requests.slice(4), ['POST 200']);
    assert.equal(report.requests, 3, 'a create, one look-up round, a create');
    assert.deepEqual(outcome(report), { created: [0], rejected: [], unknown: [], notSent: [] });
  });

  test('look-ups that fail five times in a row: three in the first round, the third of the second round answers; the row is created, not unknown', async () => {
    sb.setBehaviour({ profile: 'default' });
    const rows: CustomerDto[] = freshVkns(1, 6).map((t) => ({ TaxNumber: t, Name: 'Beş Hata Ltd.' }));
    const { report, requests } = await run(rows, () => sb.setFaults({ queue: Array(6).fill('500') }));
    assert.deepEqual(requests.slice(0, 6), ['POST 500/before', ...Array(5).fill('GET 500/before')]);
    assert.ok(/^GET \d+$/.test(requests[6]), `the sixth look-up is answered: ${requests[6]}`);
    assert.deepEqual(requests.slice(7), ['POST 200']);
    assert.deepEqual(outcome(report), { created: [0], rejected: [], unknown: [], notSent: [] });
  });

  test('look-ups that fail every time: asked three times in each round, 5 rounds, then the row is unknown (sent once)', async () => {
    sb.setBehaviour({ profile: 'default' });
    const rows: CustomerDto[] = freshVkns(1, 7).map((t) => ({ TaxNumber: t, Name: 'Hep Hata Ltd.' }));
    const { report, requests } = await run(rows, () => sb.setFaults({ queue: Array(40).fill('500') }));
    assert.deepEqual(requests, ['POST 500/before', ...Array(15).fill('GET 500/before')]);
    assert.deepEqual(outcome(report), { created: [], rejected: [], unknown: [0], notSent: [] });
  });
});
