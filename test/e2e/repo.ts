// Locations the UI suite shares with the runner scripts. The bundles run from out/test/e2e/..., at
// different depths, so the repository root is found by walking up to this package's manifest.
import * as fs from 'node:fs';
import * as path from 'node:path';

function findRepoRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === 'nilvera-general') return dir;
    if (path.dirname(dir) === dir) throw new Error(`no nilvera-general package.json above ${start}`);
  }
}

export const repoRoot = findRepoRoot(__dirname);

/** Where screenshots and other artifacts of the UI suite go (git-ignored). */
export const resultsDir = path.join(repoRoot, 'test-results', 'e2e');

/** The subset of scripts/code-server.js the harness uses (loaded at run time, not bundled). */
export interface CodeServerModule {
  startServer(options: {
    version?: string;
    workDir?: string;
    userDataDir?: string;
    extensionsDir?: string;
    folder?: string;
    env?: Record<string, string>;
    locale?: string;
  }): Promise<{ url: string; port: number; logFile: string; stop(): Promise<void> }>;
  installExtension(vsix: string, dirs: { version?: string; userDataDir: string; extensionsDir: string; env?: NodeJS.ProcessEnv }): string;
  isolatedEnv(dir: string): NodeJS.ProcessEnv;
  killGroup(child: { pid?: number }, graceMs?: number): Promise<void>;
}

export function codeServer(): CodeServerModule {
  // A computed path keeps esbuild from bundling the script (its own __dirname must stay scripts/).
  const file = path.join(repoRoot, 'scripts', 'code-server.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(file) as CodeServerModule;
}

/** The subset of scripts/package.js the harness uses. */
export interface PackagingModule {
  packageFixture(dir: string, out: string): string;
}

export function packaging(): PackagingModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path.join(repoRoot, 'scripts', 'package.js')) as PackagingModule;
}

/** scripts/language-pack.js: the fixture language pack, installed and registered as the extension-host suite does it. */
export interface LanguagePackModule {
  installLanguagePack(locale: string, dirs: { version?: string; workDir: string; userDataDir: string; extensionsDir: string }): void;
}

export function languagePacks(): LanguagePackModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path.join(repoRoot, 'scripts', 'language-pack.js')) as LanguagePackModule;
}

/** The VSIX the suite installs: the one run-e2e.js made, or `npm run package`'s default output. */
export function vsixPath(): string {
  if (process.env.NILVERA_E2E_VSIX) return process.env.NILVERA_E2E_VSIX;
  const { name, version } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string };
  return path.join(repoRoot, `${name}-${version}.vsix`);
}
