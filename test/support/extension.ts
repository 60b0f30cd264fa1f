// The extension under test, activated in this extension host; in Test mode its API carries the test
// seams (`testing`).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID } from '../../src/constants';
import type { NilveraExtensionApi } from '../../src/extension';

export async function activateExtension(): Promise<NilveraExtensionApi> {
  const ext = vscode.extensions.getExtension<NilveraExtensionApi>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded in this host`);
  return ext.activate();
}
