// `npm run validate`: the built dist/validate.js on the fixtures and GİB's samples, as a pipeline runs it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseArgs, UsageError } from '../../../src/gib/cli';
import { gibArchives, NO_GIB_DATA } from '../../support/gibPackages';

const root = path.join(__dirname, '../../../..');
const cli = path.join(root, 'dist/validate.js');
const archives = gibArchives();
const skip = (!archives && NO_GIB_DATA) || (!existsSync(cli) && 'dist/validate.js is not built (npm run build)');

function run(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: root });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('arguments: options, paths, and what is missing said plainly', () => {
  assert.deepEqual(parseArgs(['--json', '--rules', 'r.zip', 'a.xml', 'dir']), { json: true, includeDraft: false, rules: 'r.zip', paths: ['a.xml', 'dir'] });
  assert.throws(() => parseArgs(['--rules']), (e: Error) => e instanceof UsageError && /--rules needs a ZIP or a folder/.test(e.message));
  assert.throws(() => parseArgs(['--rules', 'r.zip']), /no file or folder to validate/);
  assert.throws(() => parseArgs(['a.xml']), /give GİB's rules/);
  assert.throws(() => parseArgs(['--frobnicate', 'a.xml']), /unknown option --frobnicate/);
});

test('one line per finding, exit code 1 on an error; clean documents give exit code 0', { skip }, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gib-cli-'));
  try {
    const invoice = readFileSync(path.join(root, 'test/fixtures/gib/invoice.xml'), 'utf8');
    writeFileSync(path.join(dir, 'ok.xml'), invoice);
    writeFileSync(path.join(dir, 'notes.xml'), '<notes/>');
    const clean = run(['--rules', archives!.rules, '--schemas', archives!.schemas, dir]);
    assert.equal(clean.code, 0, clean.stdout + clean.stderr);
    assert.equal(clean.stdout, '');
    assert.match(clean.stderr, /notes\.xml: skipped, not a UBL-TR document/);

    const bad = path.join(dir, 'bad.xml');
    writeFileSync(bad, invoice.replace('<cbc:ID>NLV2026000000001</cbc:ID>', '<cbc:ID>NLV-1</cbc:ID>'));
    const broken = run(['--rules', archives!.rules, '--schemas', archives!.schemas, bad]);
    assert.equal(broken.code, 1);
    const line = invoice.split('\n').findIndex((l) => l.includes('<cbc:ID>NLV2026000000001</cbc:ID>')) + 1;
    assert.equal(broken.stdout, `${bad}:${line}:3: error: Geçersiz cbc:ID elemanı değeri. cbc:ID elemanı 'ABC2009123456789' formatında olmalıdır. [GİB rules 20260312]\n`);

    const json = run(['--json', '--include-draft', '--schemas', archives!.schemas, bad]);
    assert.equal(json.code, 1, 'the draft XSD finding is an error when asked for');
    const parsed = JSON.parse(json.stdout) as { file: string; line: number; column: number; severity: string; source: string; message: string }[];
    assert.deepEqual(parsed.map((f) => Object.keys(f)), [['file', 'line', 'column', 'severity', 'source', 'message']]);
    assert.equal(parsed[0].source, 'GİB XSD');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("GİB's 43 samples: every finding a well-formed line, and the ones GİB's own sample invoice gets", { skip }, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gib-cli-samples-'));
  try {
    spawnSync('unzip', ['-q', archives!.schemas, '*/xml/*.xml', '-d', dir]);
    const xmlDir = path.join(dir, 'UBLTR_1.2.1_Paketi', 'xml');
    if (!existsSync(xmlDir)) return; // no unzip on this machine: the engine tests cover the samples
    const r = run(['--rules', archives!.rules, '--schemas', archives!.schemas, xmlDir]);
    assert.equal(r.code, 1);
    const lines = r.stdout.trim().split('\n');
    for (const l of lines) assert.match(l, /^.+\.xml:\d+:\d+: (error|warning|info): .+ \[(GİB XSD|GİB rules 20260312)\]$/, l);
    assert.ok(lines.includes(`${path.join(xmlDir, 'TemelFaturaOrnegi.xml')}:14:2: error: Geçersiz cbc:ID elemanı değeri. cbc:ID elemanı 'ABC2009123456789' formatında olmalıdır. [GİB rules 20260312]`));
    console.log(`CLI on GİB's samples: ${lines.length} findings`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a missing rules archive is a clear message and exit code 2', { skip: !existsSync(cli) && 'dist/validate.js is not built' }, () => {
  const r = run(['--rules', path.join(tmpdir(), 'no-such-e-FaturaPaketi.zip'), 'x.xml']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /no-such-e-FaturaPaketi\.zip does not exist/);
});
