// Display languages other than English, offline. VS Code shows an extension's package.nls.<lang>.json
// and l10n/bundle.l10n.<lang>.json only when a language pack for <lang> is installed and registered
// in <user-data-dir>/languagepacks.json; the real packs are not on npm, so a fixture pack that
// translates nothing of VS Code itself (test/e2e/fixtures/language-pack-<lang>/) stands in. The
// server registers installed packs in that file only on some code paths, so the harness writes it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { codeServer, packaging, repoRoot } from './repo';

export function languagePackDir(locale: string): string {
  return path.join(repoRoot, 'test', 'e2e', 'fixtures', `language-pack-${locale}`);
}

/** Installs the fixture pack for `locale` (unless there) and registers it for this user-data folder. */
export function ensureLanguagePack(locale: string, dirs: { workDir: string; userDataDir: string; extensionsDir: string }): void {
  const fixture = languagePackDir(locale);
  if (!fs.existsSync(path.join(fixture, 'package.json'))) throw new Error(`no language pack fixture for "${locale}" in ${fixture}`);
  const manifest = JSON.parse(fs.readFileSync(path.join(fixture, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
  const id = `${manifest.publisher}.${manifest.name}`;
  const installed = path.join(dirs.extensionsDir, `${id}-${manifest.version}`);
  if (!fs.existsSync(installed)) {
    const vsix = packaging().packageFixture(fixture, path.join(dirs.workDir, `${manifest.name}.vsix`));
    codeServer().installExtension(vsix, { version: process.env.NILVERA_E2E_CS_VERSION || undefined, userDataDir: dirs.userDataDir, extensionsDir: dirs.extensionsDir, env: codeServer().isolatedEnv(dirs.workDir) });
  }
  const languagePacks = {
    [locale]: {
      hash: `${id}-${manifest.version}`,
      extensions: [{ extensionIdentifier: { id }, version: manifest.version }],
      translations: { vscode: path.join(installed, 'translations', 'main.i18n.json') },
      label: locale,
    },
  };
  fs.writeFileSync(path.join(dirs.userDataDir, 'languagepacks.json'), JSON.stringify(languagePacks));
}
