// A display language other than English, offline, for the extension-host suite (scripts/run-suite.js
// --locale tr) and the UI suite's scenarios with a locale (test/e2e/harness.ts, through
// test/e2e/repo.ts's languagePacks()). VS Code uses a language only when a language pack for it is
// installed and registered in <user-data-dir>/languagepacks.json; the real packs are not on npm, so a
// fixture pack (test/e2e/fixtures/language-pack-<lang>/, which translates nothing of VS Code itself)
// stands in. The server registers installed packs in that file only on some code paths, so it is
// written here.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

/** Packages and installs the fixture pack for `locale` into the server's folders and registers it. */
function installLanguagePack(locale, { version, workDir, userDataDir, extensionsDir }) {
  const cs = require('./code-server');
  const { packageFixture } = require('./package');
  const fixture = path.join(root, 'test', 'e2e', 'fixtures', `language-pack-${locale}`);
  if (!fs.existsSync(path.join(fixture, 'package.json'))) throw new Error(`no language pack fixture for "${locale}" in ${fixture}`);
  const manifest = JSON.parse(fs.readFileSync(path.join(fixture, 'package.json'), 'utf8'));
  const id = `${manifest.publisher}.${manifest.name}`;
  const installed = path.join(extensionsDir, `${id}-${manifest.version}`);
  if (!fs.existsSync(installed)) {
    const vsix = packageFixture(fixture, path.join(workDir, `${manifest.name}.vsix`));
    cs.installExtension(vsix, { version, userDataDir, extensionsDir, env: cs.isolatedEnv(workDir) });
  }
  const languagePacks = {
    [locale]: {
      hash: `${id}-${manifest.version}`,
      extensions: [{ extensionIdentifier: { id }, version: manifest.version }],
      translations: { vscode: path.join(installed, 'translations', 'main.i18n.json') },
      label: locale,
    },
  };
  fs.mkdirSync(userDataDir, { recursive: true });
  fs.writeFileSync(path.join(userDataDir, 'languagepacks.json'), JSON.stringify(languagePacks));
}

module.exports = { installLanguagePack };
