// The walkthrough step "download the registry list" completes when a list is on disk and indexed
// (nilvera.walkthrough.registryDownloaded). Only the features that open the offline registry (registry
// commands, editor, reconciliation) can see that, so each calls this when it loads; the first call
// subscribes (invalidateOfflineRegistries fires after every download).
import type * as vscode from 'vscode';
import { GLOBAL_USER_TYPES } from '../api/types';
import { offlineRegistry, registryIndexRoot } from '../registry/offlineLookup';
import { walkthroughStepDone } from './stepsDone';

let tracking = false;

export function trackRegistryDownloads(context: vscode.ExtensionContext): void {
  if (tracking) return;
  tracking = true;
  const root = registryIndexRoot(context.globalStorageUri.fsPath);
  const registries = GLOBAL_USER_TYPES.map((userType) => offlineRegistry(root, userType));
  let downloaded = false;
  const updateDownloaded = (): void => {
    if (downloaded) return;
    downloaded = registries.some((r) => r.hasIndex());
    if (downloaded) walkthroughStepDone('downloadRegistry');
  };
  context.subscriptions.push(...registries.map((r) => r.onDidChange(updateDownloaded)), { dispose: () => (tracking = false) });
}
