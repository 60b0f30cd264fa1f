// Entry of the extension-host suite: VS Code loads this bundle (out/test/suite/index.js) through
// `extensionTestsPath` and calls run(); the promise's outcome becomes the exit code the workbench
// reports (code-server: `codeAutomationExit`; @vscode/test-electron: the process exit code).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { suiteLog } from './report';

function findTestBundles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findTestBundles(p));
    else if (entry.name.endsWith('.test.js')) found.push(p);
  }
  return found.sort();
}

export async function run(): Promise<void> {
  // This file is out/test/suite/index.js; mocha is not bundled (esbuild marks it external), and the
  // extension host's module resolution is not the repository's, so load it by absolute path.
  const repoRoot = path.resolve(__dirname, '..', '..', '..');
  const mochaEntry = path.join(repoRoot, 'node_modules', 'mocha', 'index.js');
  // mocha 12 is an ES module. The build turns import() into require() (esbuild.js: dynamic-import off),
  // so require it outright: require(esm) works on Node >= 20.19 / 22.12, which mocha 12 needs anyway.
  // Depending on the Node version, require(esm) gives the module namespace or mocha's "module.exports" export.
  const mochaModule = createRequire(__filename)(mochaEntry) as typeof Mocha & { default?: typeof Mocha };
  const MochaClass = mochaModule.default ?? mochaModule;

  try {
    // The reporters print through Base.consoleLog.
    MochaClass.reporters.Base.consoleLog = suiteLog;
    // Plain text in the report file, also under CI=true (where supports-color would turn colours on).
    MochaClass.reporters.Base.useColors = false;
    const mocha = new MochaClass({ ui: 'tdd', color: false, timeout: 30_000, reporter: 'spec' });
    // The extension-host halves of the benchmarks (test/bench/host/) skip themselves unless their benchmark asks.
    const files = [...findTestBundles(__dirname), ...findTestBundles(path.join(__dirname, '..', 'bench', 'host'))];
    if (files.length === 0) throw new Error(`no *.test.js bundles under ${__dirname}: run \`node esbuild.js --tests\` first`);
    for (const f of files) mocha.addFile(f);
    const grep = process.env.NILVERA_SUITE_GREP;
    if (grep) mocha.grep(grep);
    const failures = await new Promise<number>((resolve) => mocha.run(resolve));
    if (failures > 0) throw new Error(`${failures} extension-host test(s) failed`);
  } catch (e) {
    suiteLog(e instanceof Error ? e.message : String(e));
    throw e;
  }
}
