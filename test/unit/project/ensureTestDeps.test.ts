// scripts/ensure-test-deps.js, the first step of `npm test`: what it finds missing on a machine, and
// what it does about it (install as root, or stop with the exact command). The machine is described
// by a PATH of temporary folders with fake executables; nothing is installed or removed.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';

interface System {
  PATH: string;
  chromiumPath?: string;
  isRoot: boolean;
  dpkgHas(pkg: string): boolean;
  codeServerInstalled(version: string): boolean;
}
interface Found {
  chromium?: string;
  apt: string[];
  codeServer: string[];
  aptAvailable: boolean;
}
interface Deps {
  CODE_SERVER_VERSIONS: string[];
  detect(system: System): Found;
  plan(found: Found, system: System): { run?: string[][]; stop?: string };
}

// This bundle runs from out/test/unit/; the script is loaded from the repository as it is.
const root = path.resolve(__dirname, '..', '..', '..', '..');
const deps = createRequire(path.join(root, 'package.json'))('./scripts/ensure-test-deps.js') as Deps;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-deps-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A folder holding executable stubs with these names, for PATH. */
function binDir(...names: string[]): string {
  const dir = fs.mkdtempSync(path.join(tmp, 'bin-'));
  for (const n of names) fs.writeFileSync(path.join(dir, n), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  return dir;
}

function system(over: Partial<System>): System {
  return { PATH: '', isRoot: false, dpkgHas: () => true, codeServerInstalled: () => true, ...over };
}

test('everything there: nothing to install, and the UI suite gets the Chromium found on PATH', () => {
  const bin = binDir('chromium', 'rg', 'apt-get');
  const s = system({ PATH: bin });
  const found = deps.detect(s);
  assert.deepEqual(found, { chromium: path.join(bin, 'chromium'), apt: [], codeServer: [], aptAvailable: true });
  assert.deepEqual(deps.plan(found, s), { run: [] });
});

test('PATH without chromium, not root: stops with the exact apt-get command', () => {
  const s = system({ PATH: binDir('rg', 'apt-get') });
  const found = deps.detect(s);
  assert.deepEqual(found.apt, ['chromium']);
  assert.equal(
    deps.plan(found, s).stop,
    'npm test needs chromium. Run:\n\n  sudo apt-get update && sudo apt-get install -y chromium\n\nthen run npm test again.',
  );
});

test('as root the same machine installs chromium with apt-get, and nothing is left to ask', () => {
  const s = system({ PATH: binDir('rg', 'apt-get'), isRoot: true });
  const p = deps.plan(deps.detect(s), s);
  assert.equal(p.stop, undefined);
  assert.deepEqual(p.run, [['apt-get', 'update', '-qq'], ['apt-get', 'install', '-y', '-qq', 'chromium']]);
});

test('CHROMIUM_PATH wins over PATH, and a CHROMIUM_PATH that does not exist counts as missing', () => {
  const chrome = path.join(binDir('google-chrome'), 'google-chrome');
  assert.equal(deps.detect(system({ PATH: binDir('chromium'), chromiumPath: chrome })).chromium, chrome);
  const broken = deps.detect(system({ PATH: binDir('chromium'), chromiumPath: path.join(tmp, 'no-such-chrome') }));
  assert.equal(broken.chromium, undefined);
  assert.deepEqual(broken.apt, ['chromium']);
});

test('ripgrep and libkrb5-dev are needed only while a code-server version must be installed', () => {
  const noRg = binDir('chromium', 'apt-get');
  const noKrb = (pkg: string) => pkg !== 'libkrb5-dev';
  assert.deepEqual(deps.detect(system({ PATH: noRg, dpkgHas: noKrb })).apt, [], 'code-server is there: neither is needed');

  const s = system({ PATH: noRg, dpkgHas: noKrb, codeServerInstalled: (v) => v !== '4.100.3' });
  const found = deps.detect(s);
  assert.deepEqual(found.apt, ['ripgrep', 'libkrb5-dev']);
  assert.deepEqual(found.codeServer, ['4.100.3']);
  assert.equal(deps.plan(found, s).stop, 'npm test needs ripgrep libkrb5-dev. Run:\n\n  sudo apt-get update && sudo apt-get install -y ripgrep libkrb5-dev\n\nthen run npm test again.');
});

test('a missing code-server is installed through scripts/code-server.js, after the Debian packages, without root', () => {
  const asRoot = system({ PATH: binDir('apt-get'), isRoot: true, dpkgHas: () => false, codeServerInstalled: () => false });
  const p = deps.plan(deps.detect(asRoot), asRoot);
  const cmds = (p.run ?? []).map((c) => c.map((a) => path.basename(a)).join(' '));
  assert.deepEqual(cmds, [
    'apt-get update -qq',
    'apt-get install -y -qq chromium ripgrep libkrb5-dev',
    ...deps.CODE_SERVER_VERSIONS.map((v) => `${path.basename(process.execPath)} code-server.js install --version ${v}`),
  ]);

  const user = system({ PATH: binDir('chromium', 'rg'), codeServerInstalled: (v) => v === '4.100.3' });
  assert.deepEqual((deps.plan(deps.detect(user), user).run ?? []).map((c) => c.slice(1).map((a) => path.basename(a))), [['code-server.js', 'install', '--version', '4.139.1']]);
});

test('no apt-get: says what is needed and that CHROMIUM_PATH may point at a browser', () => {
  const s = system({ PATH: binDir('rg') });
  assert.match(deps.plan(deps.detect(s), s).stop ?? '', /^npm test needs chromium, and this machine has no apt-get\. .*CHROMIUM_PATH/);
});
