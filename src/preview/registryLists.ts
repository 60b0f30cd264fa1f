// The downloaded registry lists the structured view looks parties up in (the same shared, already open
// indexes as the editor's hovers and diagnostics), one per user type.
import type * as vscode from 'vscode';
import type { GlobalUserType } from '../api/types';
import { offlineRegistry, registryIndexRoot } from '../registry/offlineLookup';
import type { RegistryList } from './model/readDocument';

export function registryLists(context: vscode.ExtensionContext): (userType: GlobalUserType) => RegistryList | undefined {
  return (userType) => {
    const registry = offlineRegistry(registryIndexRoot(context.globalStorageUri.fsPath), userType);
    const lists = registry.lists();
    if (lists.length === 0) return undefined;
    // The answer is as fresh as the oldest list consulted.
    const downloadedAt = lists.map((l) => l.downloadedAt).sort()[0];
    return { lookup: (taxNumber) => registry.lookup(taxNumber), downloadedAt };
  };
}
