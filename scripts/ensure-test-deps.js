#!/usr/bin/env node
// The first step of `npm test` (scripts/test-all.js): makes sure the machine has what the suites in a
// real VS Code need, so a fresh clone needs nothing but README's two commands.
//   - Chromium (Debian's `chromium`, or CHROMIUM_PATH) for the headless workbench and the UI suite;
//   - code-server 4.139.1 and 4.100.3 in the test cache (scripts/code-server.js), and, only to install
//     those, `ripgrep` and `libkrb5-dev` (the offline build of 4.100.3 and code-server's kerberos module).
// What is missing is installed where it may be: apt-get when running as root, code-server through
// scripts/code-server.js. Otherwise it stops at once with the exact command to run.
//
//   node scripts/ensure-test-deps.js [--check]     --check only reports (exit 1 when something is missing)
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { realVsCodeUnsupported } = require('./platform');

const CODE_SERVER_VERSIONS = ['4.139.1', '4.100.3'];

/** The executable `name` on `PATH`, or undefined. */
function which(name, PATH = process.env.PATH || '') {
  for (const dir of PATH.split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Whether Debian's package is installed; false where there is no dpkg-query (not Debian, not Linux). */
function dpkgHas(pkg, env = process.env) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8', env });
  return !r.error && r.status === 0 && /install ok installed/.test(r.stdout);
}

/** A code-server version is there when the files its install creates last are (scripts/code-server.js). */
function codeServerInstalled(version) {
  const l = require('./code-server').layout(version);
  return [l.entry, ...l.completeness].every((p) => fs.existsSync(p));
}

/** The machine as it is; tests pass their own. */
function probeSystem(env = process.env) {
  return {
    PATH: env.PATH || '',
    chromiumPath: env.CHROMIUM_PATH,
    isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
    dpkgHas,
    codeServerInstalled,
  };
}

/**
 * What is missing. `system`: { PATH, chromiumPath?, isRoot, dpkgHas(pkg), codeServerInstalled(version) }.
 * Returns { chromium (the path the UI suite should use, when found), apt: [Debian packages to install],
 * codeServer: [versions to install], aptAvailable }.
 */
function detect(system) {
  const apt = [];
  let chromium;
  if (system.chromiumPath) {
    if (fs.existsSync(system.chromiumPath)) chromium = system.chromiumPath;
    else apt.push('chromium');
  } else {
    chromium = which('chromium', system.PATH);
    if (!chromium) apt.push('chromium');
  }
  const codeServer = CODE_SERVER_VERSIONS.filter((v) => !system.codeServerInstalled(v));
  if (codeServer.length > 0) {
    if (!which('rg', system.PATH)) apt.push('ripgrep');
    if (!system.dpkgHas('libkrb5-dev')) apt.push('libkrb5-dev');
  }
  return { chromium, apt, codeServer, aptAvailable: !!which('apt-get', system.PATH) };
}

/**
 * What to do about it: { run: [[cmd, ...args]] } to install now, or { stop: message } with the exact
 * command a person must run first. apt-get runs only as root; code-server installs into the cache
 * (no root needed) once the Debian packages are there.
 */
function plan(found, system) {
  const run = [];
  if (found.apt.length > 0) {
    const packages = found.apt.join(' ');
    if (!found.aptAvailable) {
      return {
        stop: `npm test needs ${packages}, and this machine has no apt-get. Install that with your package manager${found.apt.includes('chromium') ? ' (or set CHROMIUM_PATH to a Chromium or Chrome executable)' : ''}, then run npm test again.`,
      };
    }
    if (!system.isRoot) {
      return { stop: `npm test needs ${packages}. Run:\n\n  sudo apt-get update && sudo apt-get install -y ${packages}\n\nthen run npm test again.` };
    }
    run.push(['apt-get', 'update', '-qq'], ['apt-get', 'install', '-y', '-qq', ...found.apt]);
  }
  for (const version of found.codeServer) run.push([process.execPath, path.join(__dirname, 'code-server.js'), 'install', '--version', version]);
  return { run };
}

/** Checks and installs; returns the environment the suites should get (CHROMIUM_PATH), or throws. */
function ensureTestDeps({ checkOnly = false, log = console.log } = {}) {
  const unsupported = realVsCodeUnsupported();
  if (unsupported) throw new Error(`The suites in a real VS Code (code-server) cannot run here: ${unsupported}.`);
  const system = probeSystem();
  const found = detect(system);
  const missing = [...found.apt, ...found.codeServer.map((v) => `code-server ${v}`)];
  if (missing.length === 0) {
    log(`[deps] chromium (${found.chromium}) and code-server ${CODE_SERVER_VERSIONS.join(', ')} are there`);
    return { CHROMIUM_PATH: found.chromium };
  }
  const steps = plan(found, system);
  if (steps.stop) throw new Error(steps.stop);
  if (checkOnly) throw new Error(`missing: ${missing.join(', ')}; \`node scripts/ensure-test-deps.js\` installs them:\n${steps.run.map((c) => `  ${c.join(' ')}`).join('\n')}`);
  log(`[deps] installing: ${missing.join(', ')}`);
  for (const [cmd, ...args] of steps.run) {
    log(`[deps] $ ${cmd} ${args.join(' ')}`);
    const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (r.status !== 0) throw new Error(`\`${cmd} ${args.join(' ')}\` failed (exit ${r.status}); run it yourself, then npm test again`);
  }
  const after = detect(probeSystem());
  if (after.apt.length > 0 || after.codeServer.length > 0) throw new Error(`still missing after installing: ${[...after.apt, ...after.codeServer].join(', ')}`);
  return { CHROMIUM_PATH: after.chromium };
}

module.exports = { CODE_SERVER_VERSIONS, which, dpkgHas, detect, plan, ensureTestDeps };

if (require.main === module) {
  try {
    ensureTestDeps({ checkOnly: process.argv.includes('--check') });
  } catch (e) {
    console.error(`[deps] ${e.message}`);
    process.exit(1);
  }
}
