// Settings that choose where requests (and the key) go, or whether hovers use the network, cannot be
// set by an untrusted workspace: each is machine- or application-scoped, or restricted.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(__dirname, '../../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  capabilities: { untrustedWorkspaces: { restrictedConfigurations?: string[] } };
  contributes: { configuration: { properties: Record<string, { scope?: string }> } | Array<{ properties: Record<string, { scope?: string }> }> };
};

const NETWORK_SETTINGS = ['nilvera.environment', 'nilvera.customUrl', 'nilvera.editor.hoverOnlineLookup', 'nilvera.gibRules.rulesUrl', 'nilvera.gibRules.schemasUrl'];

test('an untrusted workspace cannot choose where requests go or make hovers use the network', () => {
  const restricted = new Set(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations ?? []);
  const properties = Object.assign({}, ...[manifest.contributes.configuration].flat().map((c) => c.properties)) as Record<string, { scope?: string }>;
  for (const name of NETWORK_SETTINGS) {
    assert.ok(properties[name], `${name} is not contributed`);
    const scope = properties[name].scope;
    assert.ok(restricted.has(name) || scope === 'machine' || scope === 'application', `${name} (scope ${scope ?? 'window'}) is neither restricted nor machine-scoped`);
  }
});
