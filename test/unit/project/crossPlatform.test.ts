// A contributor on macOS or Windows can run `npm test`: the scripts start npm without the shell Node
// refuses .cmd files without, link folders without Developer Mode, end process trees without negative
// pids, ask no dpkg-query, and skip the code-server suites (Linux x64 only) saying why and what runs
// instead. And the GitHub Actions workflow that runs the unit tests and the extension-host suite on
// ubuntu, windows and macos (it cannot run here) is checked for its shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

interface Run {
  command: string;
  args: string[];
  shell: boolean;
}
interface Planned {
  name: string;
  skip?: string;
  realVsCode?: boolean;
  run?: Run;
}
interface TestAll {
  plannedSteps(o: { only?: string[]; platform?: string; arch?: string; env?: Record<string, string | undefined>; exists?: (p: string) => boolean }): Planned[];
}
interface Platform {
  realVsCodeUnsupported(platform?: string, arch?: string): string | undefined;
  npmCommand(args: string[], env?: Record<string, string | undefined>, platform?: string): Run;
  signalTree(pid: number, signal: NodeJS.Signals | 0, platform?: string): boolean;
  folderLinkType(platform?: string): string;
}

// This bundle runs from out/test/unit/; the scripts are loaded from the repository as they are.
const root = path.resolve(__dirname, '..', '..', '..', '..');
const load = createRequire(path.join(root, 'package.json'));
const testAll = load('./scripts/test-all.js') as TestAll;
const platform = load('./scripts/platform.js') as Platform;
const deps = load('./scripts/ensure-test-deps.js') as { dpkgHas(pkg: string, env?: Record<string, string>): boolean };
const scripts = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

const REAL_VSCODE_STEPS = ['extension host', 'extension host, VS Code 1.100', 'extension host, in Turkish', 'UI (browser)'];
const EVERYWHERE = ['build', 'typecheck', 'lint', 'unit', 'API suite through prism'];

test('npm test on Windows and macOS: build, type check, lint and unit tests run; the code-server suites are skipped with the reason and what runs instead', () => {
  for (const [os, arch] of [['win32', 'x64'], ['darwin', 'arm64'], ['darwin', 'x64'], ['linux', 'arm64']]) {
    const planned = testAll.plannedSteps({ platform: os, arch, env: {}, exists: () => true });
    assert.deepEqual(planned.filter((s) => s.run).map((s) => s.name), EVERYWHERE, `${os}-${arch}`);
    const skipped = planned.filter((s) => s.skip);
    assert.deepEqual(skipped.map((s) => s.name), REAL_VSCODE_STEPS, `${os}-${arch}`);
    for (const s of skipped) {
      assert.match(s.skip ?? '', /Linux x64 only/);
      assert.match(s.skip ?? '', new RegExp(`this machine is ${os}-${arch}`));
      assert.match(s.skip ?? '', /npm run test:suite:electron/);
    }
  }
  const linux = testAll.plannedSteps({ platform: 'linux', arch: 'x64', env: {}, exists: () => true });
  assert.deepEqual(linux.filter((s) => s.run).map((s) => s.name), [...EVERYWHERE, ...REAL_VSCODE_STEPS]);
});

test('npm is started through the npm that runs npm test (no shell), else npm.cmd with a shell on Windows', () => {
  const cli = path.join(root, 'node_modules', 'npm', 'bin', 'npm-cli.js');
  assert.deepEqual(platform.npmCommand(['run', 'build'], { npm_execpath: cli }, 'win32'), { command: process.execPath, args: [cli, 'run', 'build'], shell: false });
  assert.deepEqual(platform.npmCommand(['run', 'build'], {}, 'win32'), { command: 'npm.cmd', args: ['run', 'build'], shell: true });
  assert.deepEqual(platform.npmCommand(['run', 'build'], {}, 'darwin'), { command: 'npm', args: ['run', 'build'], shell: false });
  const unit = testAll.plannedSteps({ only: ['unit'], platform: 'win32', arch: 'x64', env: {} })[0];
  assert.deepEqual(unit.run, { command: 'npm.cmd', args: ['run', 'test:unit'], shell: true });
});

test('no Developer Mode, no negative pids, no dpkg-query needed off Linux', () => {
  assert.equal(platform.folderLinkType('win32'), 'junction');
  assert.equal(platform.folderLinkType('linux'), 'dir');
  // Signal 0 on Windows asks about the process itself (no group); this process runs.
  assert.equal(platform.signalTree(process.pid, 0, 'win32'), true);
  // Where there is no dpkg-query, a Debian package is simply not there (no exception).
  assert.equal(deps.dpkgHas('coreutils', { PATH: '' }), false);
  // The VSIX staging links node_modules through folderLinkType, and killGroup goes through signalTree.
  assert.match(fs.readFileSync(path.join(root, 'scripts', 'package.js'), 'utf8'), /symlinkSync\(.*folderLinkType\(\)\);/);
  assert.doesNotMatch(fs.readFileSync(path.join(root, 'scripts', 'code-server.js'), 'utf8'), /process\.kill\(-/);
});

/** The workflow, parsed by the YAML parser mocha (a direct dev dependency) brings along. */
function loadWorkflow(): {
  name?: string;
  on?: Record<string, unknown>;
  jobs?: Record<string, { 'runs-on'?: string; strategy?: { matrix?: { os?: string[] } }; steps?: Array<{ name?: string; uses?: string; run?: string; if?: string; with?: Record<string, unknown> }> }>;
} {
  const yaml = createRequire(load.resolve('mocha/package.json'))('js-yaml') as { load(text: string): unknown };
  return yaml.load(fs.readFileSync(path.join(root, '.github', 'workflows', 'ci.yml'), 'utf8')) as ReturnType<typeof loadWorkflow>;
}

test('the GitHub Actions workflow runs the unit tests and the extension-host suite (test-electron, xvfb on Linux) on ubuntu, windows and macos', () => {
  const wf = loadWorkflow();
  assert.ok(wf.name);
  assert.ok(wf.on && 'push' in wf.on && 'pull_request' in wf.on, 'runs on push and pull requests');
  const jobs = Object.values(wf.jobs ?? {});
  assert.equal(jobs.length, 1);
  const job = jobs[0];
  assert.deepEqual(job.strategy?.matrix?.os, ['ubuntu-latest', 'windows-latest', 'macos-latest']);
  assert.equal(job['runs-on'], '${{ matrix.os }}');
  const steps = job.steps ?? [];
  for (const s of steps) assert.ok(!!s.uses !== !!s.run, `a step does one thing: ${JSON.stringify(s)}`);
  assert.ok(steps.some((s) => s.uses?.startsWith('actions/checkout@')));
  const setupNode = steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
  assert.ok(setupNode && Number(setupNode.with?.['node-version']) >= 20, 'Node 20 or later (mocha 12 needs 20.19)');
  const runs = steps.filter((s) => s.run).map((s) => ({ run: (s.run ?? '').trim(), if: s.if }));
  const index = (re: RegExp) => runs.findIndex((r) => re.test(r.run));
  assert.ok(index(/^npm ci$/) === 0, 'dependencies first');
  for (const script of ['build', 'typecheck', 'lint', 'test:unit']) assert.ok(index(new RegExp(`^npm run ${script}$`)) > 0, script);
  // Every npm script the workflow runs exists.
  for (const r of runs) for (const m of r.run.matchAll(/npm run ([\w:-]+)/g)) assert.ok(scripts[m[1]], `package.json has no script ${m[1]}`);
  const suite = runs.filter((r) => /npm run test:suite:electron$/.test(r.run));
  assert.deepEqual(
    suite.map((r) => ({ run: r.run, if: r.if })),
    [
      { run: 'xvfb-run -a npm run test:suite:electron', if: "runner.os == 'Linux'" },
      { run: 'npm run test:suite:electron', if: "runner.os != 'Linux'" },
    ],
  );
  assert.match(scripts['test:suite:electron'], /run-suite\.js --electron/);
});
