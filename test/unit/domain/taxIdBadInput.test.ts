// Bad input, tax numbers: every single-digit typo of many generated VKNs and TCKNs, adjacent
// transpositions (where the checksum math provably cannot catch some, the exact class is established),
// and a table of malformed values (length, letters, spaces, full-width digits, TCKN leading zero).
// Then the registry commands' own gate (extractTaxNumbers, src/commands/registry/taxNumberList.ts)
// in front of the client over real HTTP: a bad number never reaches the sandbox.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, lookupRegistryInBatches } from '../../../src/api';
import type { NilveraClient } from '../../../src/api';
import { extractTaxNumbers } from '../../../src/commands/registry/taxNumberList';
import { checkTaxId, completeTckn, completeVkn } from '../../../src/domain/taxId';
import type { TaxIdProblem } from '../../../src/domain/taxId';
import { startTestSandbox } from '../../support/sandbox';
import { singleDigitTypos } from '../../support/taxIdTypos';
import type { SandboxHandle } from '../../support/sandbox';

/** mulberry32: a small seeded generator, so every run tries the same numbers. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = seededRandom(20261122);
const digits = (n: number): string => Array.from({ length: n }, () => Math.floor(random() * 10)).join('');

/** Random prefixes plus an exhaustive block (a fixed stem with every value of its last four digits). */
function validNumbers(kind: 'VKN' | 'TCKN', randomCount: number): string[] {
  const complete = kind === 'VKN' ? completeVkn : completeTckn;
  const out: string[] = [];
  for (let i = 0; i < randomCount; i++) out.push(complete(kind === 'TCKN' ? String(1 + Math.floor(random() * 9)) + digits(8) : digits(9)));
  const stem = kind === 'TCKN' ? '1' + digits(4) : digits(5);
  for (let i = 0; i < 10_000; i++) out.push(complete(stem + String(i).padStart(4, '0')));
  return out;
}

const VKNS = validNumbers('VKN', 2000);
const TCKNS = validNumbers('TCKN', 2000);
const counts: Record<string, number> = {};
const count = (category: string, n = 1): void => {
  counts[category] = (counts[category] ?? 0) + n;
};

after(() => {
  console.log(`bad input tried (tax numbers): ${Object.entries(counts).map(([k, v]) => `${k}=${v}`).join(', ')}`);
});

describe('single-digit substitutions', () => {
  for (const [kind, numbers] of [['VKN', VKNS], ['TCKN', TCKNS]] as const) {
    test(`every single-digit typo of ${numbers.length} valid ${kind}s is caught`, () => {
      const checkDigits = kind === 'VKN' ? 1 : 2;
      let tried = 0;
      const missed: string[] = [];
      for (const valid of numbers) {
        assert.equal(checkTaxId(valid).valid, true, valid);
        for (const { typo, pos, digit } of singleDigitTypos(valid)) {
          tried++;
          const check = checkTaxId(typo);
          if (check.valid) {
            missed.push(`${valid}→${typo}`);
            continue;
          }
          if (kind === 'TCKN' && pos === 0 && digit === 0) {
            assert.equal(check.problem, 'tcknLeadingZero', typo);
            continue;
          }
          assert.equal(check.problem, 'checksum', typo);
          assert.equal(check.kind, kind, typo);
          // A typo in the check digit(s) themselves: the message can name the right ones.
          if (pos >= valid.length - checkDigits) assert.equal(check.expectedCheckDigits, valid.slice(-checkDigits), typo);
        }
      }
      assert.deepEqual(missed.slice(0, 5), [], `${missed.length} of ${tried} typos pass the checksum`);
      assert.equal(tried, numbers.length * (kind === 'VKN' ? 10 : 11) * 9);
      count(`${kind} substitutions`, tried);
    });
  }
});

/** Every adjacent transposition of two different digits, with whether the checksum still holds. */
function* adjacentTranspositions(valid: string): Generator<{ pos: number; a: string; b: string; swapped: string; passes: boolean }> {
  for (let pos = 0; pos + 1 < valid.length; pos++) {
    const a = valid[pos];
    const b = valid[pos + 1];
    if (a === b) continue;
    const swapped = valid.slice(0, pos) + b + a + valid.slice(pos + 2);
    yield { pos, a, b, swapped, passes: checkTaxId(swapped).valid };
  }
}

describe('adjacent transpositions', () => {
  test('TCKN: a swap is missed exactly when it is within the first ten digits and the two differ by 5', () => {
    // d10 = (7·odd − even) mod 10 and d11 = (d1+…+d10) mod 10. Swapping neighbours a,b among d1…d9
    // moves (b−a) between an odd and an even position: d10 changes by 7(b−a)+(b−a) = 8(b−a), which is
    // 0 mod 10 iff |a−b| = 5, and d11 never changes (the sum is the same). Swapping d9 with d10 gives
    // the same condition; swapping d10 with d11 is always caught. So the miss is a property of the
    // checksum, not of the code: the test asserts the code misses exactly that class and nothing else.
    let tried = 0;
    let missed = 0;
    for (const valid of TCKNS) {
      for (const t of adjacentTranspositions(valid)) {
        tried++;
        const undetectable = t.pos <= 8 && Math.abs(Number(t.a) - Number(t.b)) === 5 && t.swapped[0] !== '0';
        assert.equal(t.passes, undetectable, `${valid} → ${t.swapped}`);
        if (t.passes) missed++;
      }
    }
    assert.ok(missed > 0, 'the |a−b| = 5 class occurs in the sample');
    count('TCKN transpositions', tried);
    counts['TCKN transpositions undetectable (|a−b|=5)'] = missed;
  });

  test('VKN: whether a swap is caught depends only on its position and the two digits, never on the rest', () => {
    // Each of d1…d9 adds its own term f_i(d_i) to the sum; a swap at i changes the sum by
    // f_i(b)+f_{i+1}(a)−f_i(a)−f_{i+1}(b), independent of the other digits (for d9↔d10 the rest
    // cancels too). So each (position, a, b) class is either always caught or never: established here
    // over every class, and the never-caught classes are counted.
    const outcome = new Map<string, boolean>();
    let tried = 0;
    let missed = 0;
    for (const valid of VKNS) {
      for (const t of adjacentTranspositions(valid)) {
        tried++;
        if (t.passes) missed++;
        const key = `${t.pos}:${t.a}${t.b}`;
        const seen = outcome.get(key);
        if (seen === undefined) outcome.set(key, t.passes);
        else assert.equal(t.passes, seen, `class ${key} is not uniform (${valid} → ${t.swapped})`);
      }
    }
    assert.equal(outcome.size, 9 * 90, 'every position and ordered digit pair was tried');
    const undetectable = [...outcome].filter(([, passes]) => passes).map(([k]) => k).sort();
    assert.ok(undetectable.length > 0 && undetectable.length < outcome.size);
    // Swapping back is the same pair the other way round: the classes come in mirrored pairs.
    for (const k of undetectable) assert.ok(undetectable.includes(`${k.slice(0, 2)}${k[3]}${k[2]}`), k);
    count('VKN transpositions', tried);
    counts['VKN transpositions undetectable'] = missed;
    counts['VKN undetectable swap classes (of 810)'] = undetectable.length;
    console.log(`VKN adjacent swaps the checksum cannot catch (position:digits): ${undetectable.join(' ')}`);
  });
});

type MalformedCase = { input: string; problem: TaxIdProblem; why: string };

const FULL_WIDTH = (s: string): string => s.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));
const ARABIC_INDIC = (s: string): string => s.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)));

/** Malformed values built around valid numbers (so only the named defect makes them wrong). */
function malformedTable(vkn: string, tckn: string): MalformedCase[] {
  return [
    { input: '', problem: 'empty', why: 'empty' },
    { input: '   ', problem: 'empty', why: 'spaces only' },
    { input: '\t\r\n', problem: 'empty', why: 'white space only' },
    { input: vkn.slice(0, 9), problem: 'length', why: '9 digits (Excel dropped a leading zero?)' },
    { input: tckn + '7', problem: 'length', why: '12 digits' },
    { input: '1', problem: 'length', why: '1 digit' },
    { input: '9'.repeat(100), problem: 'length', why: '100 digits' },
    { input: `${vkn.slice(0, 4)}O${vkn.slice(5)}`, problem: 'notDigits', why: 'letter O for zero' },
    { input: `${vkn.slice(0, 2)}l${vkn.slice(3)}`, problem: 'notDigits', why: 'letter l for one' },
    { input: `${tckn.slice(0, 10)}I`, problem: 'notDigits', why: 'letter I for one' },
    { input: `TR${vkn}`, problem: 'notDigits', why: 'country prefix' },
    { input: `VKN:${vkn}`, problem: 'notDigits', why: 'label' },
    { input: `${vkn.slice(0, 3)} ${vkn.slice(3, 6)} ${vkn.slice(6)}`, problem: 'notDigits', why: 'grouped with spaces' },
    { input: `${tckn.slice(0, 3)}-${tckn.slice(3)}`, problem: 'notDigits', why: 'hyphen' },
    { input: `${vkn.slice(0, 5)}\u00a0${vkn.slice(5)}`, problem: 'notDigits', why: 'no-break space inside' },
    { input: `\u200b${vkn}`, problem: 'notDigits', why: 'zero-width space (trim keeps it)' },
    { input: FULL_WIDTH(vkn), problem: 'notDigits', why: 'full-width digits' },
    { input: FULL_WIDTH(tckn), problem: 'notDigits', why: 'full-width TCKN' },
    { input: vkn.slice(0, 9) + FULL_WIDTH(vkn[9]), problem: 'notDigits', why: 'one full-width digit' },
    { input: ARABIC_INDIC(vkn), problem: 'notDigits', why: 'Arabic-Indic digits' },
    { input: `${vkn}.0`, problem: 'notDigits', why: 'Excel number with decimals' },
    { input: '1.23457E+09', problem: 'notDigits', why: 'Excel scientific notation' },
    { input: `-${vkn}`, problem: 'notDigits', why: 'sign' },
    { input: `+${vkn}`, problem: 'notDigits', why: 'plus sign' },
    { input: `${vkn},`, problem: 'notDigits', why: 'trailing comma' },
    { input: `0${tckn.slice(1)}`, problem: 'tcknLeadingZero', why: 'TCKN starting with 0' },
    { input: '00000000000', problem: 'tcknLeadingZero', why: 'all zeros, 11 digits' },
  ];
}

describe('malformed values', () => {
  test('each malformed value gets its own named problem, whatever the number around it', () => {
    let tried = 0;
    for (let i = 0; i < 50; i++) {
      for (const c of malformedTable(VKNS[i * 37], TCKNS[i * 41])) {
        const check = checkTaxId(c.input);
        assert.equal(check.valid, false, `${c.why}: ${JSON.stringify(c.input)}`);
        assert.equal(!check.valid && check.problem, c.problem, `${c.why}: ${JSON.stringify(c.input)}`);
        tried++;
      }
    }
    count('malformed values', tried);
  });

  test('leading zeros: a VKN may start with 0, a TCKN never (for every TCKN of the sample)', () => {
    let tried = 0;
    for (let i = 0; i < 1000; i++) {
      const vkn = completeVkn('0' + digits(8));
      assert.equal(checkTaxId(vkn).valid, true, vkn);
      const zeroed = '0' + TCKNS[i].slice(1);
      const check = checkTaxId(zeroed);
      assert.equal(!check.valid && check.problem, 'tcknLeadingZero', zeroed);
      tried++;
    }
    count('TCKN leading zero', tried);
  });

  test('white space around a number is ignored, and the trimmed value is what is checked', () => {
    for (const wrap of [[' ', ' '], ['\t', '\r\n'], ['\u00a0', ''], ['\ufeff', '']]) {
      const input = wrap[0] + VKNS[3] + wrap[1];
      assert.deepEqual(checkTaxId(input), { valid: true, kind: 'VKN', value: VKNS[3] }, JSON.stringify(input));
    }
  });
});

describe('the registry commands reject bad numbers before any request (real HTTP, sandbox request log)', () => {
  let sandbox: SandboxHandle;
  let client: NilveraClient;
  before(async () => {
    sandbox = await startTestSandbox({ seed: 9, registry: 500, customers: 20 });
    client = createClient({ baseUrl: sandbox.url, getApiKey: async () => sandbox.keys.full, retry: { retries: 0 } });
  });
  after(async () => {
    await sandbox.close();
  });

  /** One bad value per line: malformed ones (no blank lines, the list skips those) and typos. */
  function badLines(): string[] {
    const lines = malformedTable(VKNS[5], TCKNS[5])
      .map((c) => c.input)
      .filter((s) => s.trim() !== '' && !/[\r\n]/.test(s));
    for (const valid of [...VKNS.slice(0, 40), ...TCKNS.slice(0, 40)]) {
      const pos = valid.length - 3;
      lines.push(valid.slice(0, pos) + ((Number(valid[pos]) + 1) % 10) + valid.slice(pos + 1));
    }
    return lines;
  }

  test('Bulk Check: a list of only bad numbers sends nothing; every line is reported with its line number', async () => {
    const lines = badLines();
    sandbox.resetRequestLog();
    const list = extractTaxNumbers(lines.join('\n'));
    assert.deepEqual(list.valid, []);
    assert.deepEqual(list.invalid.map((x) => x.line), lines.map((_, i) => i + 1));
    const report = await lookupRegistryInBatches(client.registry, list.valid, { userType: 'Invoice' });
    assert.equal(report.requests, 0);
    assert.deepEqual(sandbox.requestLog(), []);
    count('commands: bad numbers kept from the server', lines.length);
  });

  test('Bulk Check: mixed with valid numbers, exactly the valid ones are sent, in one request', async () => {
    const bad = badLines();
    const good = [VKNS[100], TCKNS[100], VKNS[200]];
    const text = ['VKN;Ünvan', ...[...bad, ...good].map((v, i) => `${v.includes(';') ? `"${v}"` : v};Firma ${i}`)].join('\r\n');
    sandbox.resetRequestLog();
    const list = extractTaxNumbers(text);
    assert.deepEqual(list.valid, good);
    assert.equal(list.invalid.length, bad.length);
    const report = await lookupRegistryInBatches(client.registry, list.valid, { userType: 'Invoice' });
    assert.equal(report.requests, 1);
    assert.deepEqual([...report.found.keys(), ...report.notRegistered].sort(), [...good].sort());
    assert.deepEqual(sandbox.requestLog().map((r) => `${r.method} ${r.path}`), ['POST /general/GlobalCompany/GetGlobalCustomerInfo']);
  });

  test('the client itself refuses an empty tax number before sending (no guard beyond that: the checksum is for the commands)', async () => {
    sandbox.resetRequestLog();
    for (const call of [() => client.registry.checkTaxNumber(''), () => client.registry.info(''), () => client.customers.getByTaxNumber('')]) {
      await assert.rejects(call(), (e: Error & { kind?: string }) => e.kind === 'badRequest' && /cannot be empty/.test(e.message));
    }
    assert.deepEqual(sandbox.requestLog(), []);
    count('client guard: empty tax number', 3);
  });
});
