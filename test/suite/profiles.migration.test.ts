// Upgrade without loss, in a real extension host: the secrets and settings the release before
// profiles wrote (one key per environment, one per custom origin) become one profile per
// environment with the same keys, and a second run changes nothing. No request is made.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Settings } from '../../src/constants';
import type { NilveraExtensionApi } from '../../src/extension';
import { legacySecretName } from '../../src/shell/profileMigration';
import { defaultProfileId, profileSecretName, PROFILES_FILE } from '../../src/shell/profileStore';
import { activateExtension } from '../support/extension';

const CUSTOM_URL = 'https://nilvera-migration.example.com';
const KEYS = {
  production: 'MIGRATION-CANARY-PRODUCTION-0000000000000000000000000000000000000',
  test: 'MIGRATION-CANARY-TEST-000000000000000000000000000000000000000000000',
  sandbox: 'MIGRATION-CANARY-SANDBOX-0000000000000000000000000000000000000000000',
  custom: 'MIGRATION-CANARY-CUSTOM-00000000000000000000000000000000000000000000',
} as const;
type Env = keyof typeof KEYS;
const ENVS = Object.keys(KEYS) as Env[];

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(Settings.section);
}

suite('Profiles: migration from per-environment keys', function () {
  this.timeout(60_000);
  let api: NilveraExtensionApi;
  const ids: Record<Env, string> = {
    production: defaultProfileId('production'),
    test: defaultProfileId('test'),
    sandbox: defaultProfileId('sandbox'),
    custom: defaultProfileId('custom', CUSTOM_URL),
  };
  const oldName = (env: Env): string => legacySecretName(env, env === 'custom' ? CUSTOM_URL : undefined);

  async function clean(): Promise<void> {
    const { services } = api.testing;
    for (const env of ENVS) {
      await services.keys.delete(oldName(env));
      await services.keys.delete(profileSecretName(ids[env]));
      await services.profiles.store.remove(ids[env]);
    }
    for (const key of [Settings.environment, Settings.customUrl]) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    services.profiles.followSettings();
  }

  suiteSetup(async () => {
    api = await activateExtension();
    await clean();
  });

  suiteTeardown(async () => {
    await clean();
    await api.testing.state.refresh();
  });

  test("today's keys and settings become one profile per environment, with nothing typed; a second run changes nothing", async () => {
    const { services } = api.testing;
    // What the current release writes: its secret names, and the two settings.
    for (const env of ENVS) await services.keys.store(oldName(env), KEYS[env]);
    await config().update(Settings.customUrl, `${CUSTOM_URL}/`, vscode.ConfigurationTarget.Global);
    await config().update(Settings.environment, 'test', vscode.ConfigurationTarget.Global);

    await services.profiles.migrate();

    for (const env of ENVS) {
      const profile = services.profiles.store.get(ids[env]);
      assert.ok(profile, `no profile for ${env}`);
      assert.equal(profile.environment, env);
      if (env === 'custom') assert.equal(profile.baseUrl, CUSTOM_URL);
      assert.equal(await services.keys.get(profileSecretName(ids[env])), KEYS[env], `the ${env} key moved to its profile`);
      assert.equal(await services.keys.get(oldName(env)), undefined, `the old ${env} secret is deleted once copied`);
    }
    // The window follows the environment setting to its profile, and the key in use is the old one.
    assert.equal(services.environment(), 'test');
    assert.equal(services.activeProfile().id, ids.test);
    assert.equal(await services.apiKey(), KEYS.test);
    await config().update(Settings.environment, 'custom', vscode.ConfigurationTarget.Global);
    assert.equal(services.activeProfile().id, ids.custom);
    assert.equal(await services.apiKey(), KEYS.custom);

    const snapshot = async (): Promise<string> =>
      JSON.stringify({
        profiles: services.profiles.store.all().filter((p) => Object.values(ids).includes(p.id)).map(({ lastUsedAt: _ignored, ...p }) => p).sort((a, b) => a.id.localeCompare(b.id)),
        keys: await Promise.all(ENVS.map(async (env) => [await services.keys.get(profileSecretName(ids[env])), await services.keys.get(oldName(env))])),
      });
    const before = await snapshot();
    const second = await services.profiles.migrate();
    assert.deepEqual(second, [], 'the second run finds nothing to migrate');
    assert.equal(await snapshot(), before, 'the second run changes no profile and no key');
  });

  // Writes close together (a profile switch whose writes are not awaited beside the migration's) each
  // build on the one before: every change is a read-modify-write of profiles.json under its lock.
  // A read-modify-write that skipped the lock or read a stale copy would lose most of these 40 records.
  test('records written close together without waiting (0-2 ms apart) are all kept once every echo is back', async () => {
    const { services } = api.testing;
    const written = Array.from({ length: 40 }, (_, i) => ({ id: `p-close-${String(i).padStart(2, '0')}`, name: `Close ${i}`, environment: 'test' as const }));
    try {
      const writes: Array<Promise<void>> = [];
      for (const [i, record] of written.entries()) {
        writes.push(services.profiles.store.put(record));
        await new Promise((r) => setTimeout(r, i % 3));
      }
      // Each write is confirmed only after the one before it, whose echo has come back by then.
      await Promise.all(writes);
      // Read the shared file itself, not the store's view of it (which applies this window's queued changes).
      const context = (services as unknown as { context: vscode.ExtensionContext }).context;
      const file = path.join(context.globalStorageUri.fsPath, PROFILES_FILE);
      const stored = new Set((JSON.parse(fs.readFileSync(file, 'utf8')) as Array<{ id: string }>).map((p) => p.id));
      const missing = written.filter((r) => !stored.has(r.id)).map((r) => r.id);
      assert.deepEqual(missing, [], 'records lost to a write that came close to another');
    } finally {
      for (const record of written) await services.profiles.store.remove(record.id);
    }
  });
});
