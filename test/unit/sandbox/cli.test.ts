// The command line: option parsing, and the bundled dist/sandbox.js announcing itself with --json,
// serving, and stopping cleanly on SIGTERM and SIGINT.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { parseCli } from '../../../src/sandbox/cli';

const BUNDLE = path.resolve(__dirname, '../../../../dist/sandbox.js');

describe('CLI options', () => {
  test('parses every option, in both --opt value and --opt=value forms', () => {
    const o = parseCli(['--port', '8080', '--host=0.0.0.0', '--key', 'K1', '--customers', '1000', '--registry=1500000', '--seed', '9', '--data', 'd.json', '--latency', '50', '--fail-rate', '0.2', '--json']);
    assert.equal(o.port, 8080);
    assert.equal(o.host, '0.0.0.0');
    assert.equal(o.key, 'K1');
    assert.equal(o.customers, 1000);
    assert.equal(o.registry, 1_500_000);
    assert.equal(o.seed, 9);
    assert.equal(o.dataFile, 'd.json');
    assert.equal(parseCli(['--data-dir=sandbox-data']).dataDir, 'sandbox-data');
    assert.deepEqual(o.faults, { latencyMs: 50, rates: { '500': 0.1, '503': 0.1 } });
    assert.equal(o.json, true);
  });

  test('rejects unknown options and bad numbers', () => {
    assert.throws(() => parseCli(['--bogus']), /unknown option/);
    assert.throws(() => parseCli(['--port', '70000']), /--port/);
    assert.throws(() => parseCli(['--customers', 'many']), /--customers/);
    assert.throws(() => parseCli(['--fail-rate', '2']), /--fail-rate/);
  });

  test('a missing value, a value given to a switch and a stray word each name the option and what it takes', () => {
    assert.throws(() => parseCli(['--port']), /^Error: --port needs a number between 0 and 65535$/);
    assert.throws(() => parseCli(['--registry', '--json']), /^Error: --registry needs a number between 0 and 20000000$/);
    assert.throws(() => parseCli(['--data']), /^Error: --data needs a file name$/);
    assert.throws(() => parseCli(['--json=yes']), /^Error: --json takes no value$/);
    assert.throws(() => parseCli(['8080']), /^Error: unknown option 8080$/);
    assert.throws(() => parseCli(['-x']), /^Error: unknown option -x$/);
    assert.equal(parseCli(['-h']).help, true);
    assert.equal(parseCli(['--keep-lists']).keepLists, true);
    assert.equal(parseCli(['--invalid-customers=7']).invalidCustomers, 7);
  });
});

describe('CLI behaviour options', () => {
  test('--profile, repeated --quirk (point=answer or point alone) and --fault-phase', () => {
    const o = parseCli(['--profile', 'alternate', '--quirk', 'badKeyStatus=401', '--quirk=registryLookupMissing', '--quirk', 'registryLookupMissing=oddText', '--fault-phase', 'after', '--fail-rate', '0.5']);
    assert.deepEqual(o.behaviour, { profile: 'alternate', quirks: { badKeyStatus: '401', registryLookupMissing: 'oddText' } });
    assert.deepEqual(o.faults, { phase: 'after', rates: { '500': 0.25, '503': 0.25 } });
    assert.deepEqual(parseCli(['--quirk', 'pageSizeLimit']).behaviour, { quirks: { pageSizeLimit: 'cap50' } });
    assert.deepEqual(parseCli(['--fault-phase=either']).faults, { phase: 'either' });
    assert.equal(parseCli([]).behaviour, undefined, 'no options: the default profile');
  });

  test('refuses unknown profiles, points, answers and phases, naming what is allowed', () => {
    assert.throws(() => parseCli(['--profile', 'strict']), /--profile needs one of: default, alternate/);
    assert.throws(() => parseCli(['--quirk', 'noSuchPoint']), /--quirk: unknown behaviour point noSuchPoint/);
    assert.throws(() => parseCli(['--quirk', 'badKeyStatus=418']), /--quirk: badKeyStatus answers one of: 401, 403/);
    assert.throws(() => parseCli(['--quirk']), /--quirk needs/);
    assert.throws(() => parseCli(['--fault-phase', 'during']), /--fault-phase needs one of: before, after, either, late/);
  });
});

describe('bundled CLI', () => {
  // A missing bundle is a failure, not a reason to skip: `npm run build` makes it (npm test does).
  test('dist/sandbox.js is built', () => assert.ok(fs.existsSync(BUNDLE), `${BUNDLE} is missing: run \`npm run build\` first`));

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`--json prints one listening line, serves with the given key, and exits 0 on ${signal}`, async () => {
      const child = spawn(process.execPath, [BUNDLE, '--json', '--port', '0', '--key', 'CLI-TEST-KEY', '--customers', '25', '--registry', '100'], { stdio: ['ignore', 'pipe', 'pipe'] });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      try {
        const lines = readline.createInterface({ input: child.stdout });
        const first = await new Promise<string>((resolve, reject) => {
          lines.once('line', resolve);
          child.once('exit', () => reject(new Error('exited early')));
        });
        const msg = JSON.parse(first) as { event: string; url: string; keys: { full: string; restricted: string } };
        assert.equal(msg.event, 'listening');
        assert.match(msg.url, /^http:\/\/127\.0\.0\.1:\d+$/);
        assert.equal(msg.keys.full, 'CLI-TEST-KEY');
        const r = await fetch(`${msg.url}/general/Customers`, { headers: { Authorization: 'Bearer CLI-TEST-KEY' } });
        assert.equal(((await r.json()) as { TotalCount: number }).TotalCount, 25);
      } finally {
        child.kill(signal);
      }
      assert.equal(await exited, 0);
    });
  }

  test('--profile and --quirk reach the running sandbox (GET /__sandbox/state, and a wrong key answers 403)', async () => {
    const child = spawn(process.execPath, [BUNDLE, '--json', '--port', '0', '--customers', '5', '--registry', '10', '--profile', 'alternate', '--quirk', 'pageSizeLimit=ignore', '--fault-phase', 'after'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const first = await new Promise<string>((resolve, reject) => {
        readline.createInterface({ input: child.stdout }).once('line', resolve);
        child.once('exit', () => reject(new Error('exited early')));
      });
      const { url } = JSON.parse(first) as { url: string };
      const state = (await (await fetch(`${url}/__sandbox/state`)).json()) as { behaviour: { profile: string; quirks: Record<string, string> } };
      assert.equal(state.behaviour.profile, 'alternate');
      assert.equal(state.behaviour.quirks.pageSizeLimit, 'ignore');
      assert.equal(state.behaviour.quirks.badKeyStatus, '403');
      const faults = (await (await fetch(`${url}/__sandbox/faults`)).json()) as { phase?: string };
      assert.equal(faults.phase, 'after');
      const r = await fetch(`${url}/general/Company`, { headers: { Authorization: 'Bearer WRONG' } });
      assert.equal(r.status, 403);
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0);
  });
});
