// GİB's findings in the editor, registered when the editor feature loads (an XML document is open).
// Nothing of GİB's engine loads here: the window's GibRules (and its worker) are loaded on the first
// UBL-TR document.
import * as vscode from 'vscode';
import type { GibRules } from '../../shell/gibRules';
import { DIAGNOSED_DOCUMENTS } from '../selectors';
import { GibRulesCodeActions } from './codeActions';
import { GibDiagnostics } from './diagnostics';

/** What the extension-host tests and the benchmark read through the diagnostics' test hook. */
export interface GibDiagnosticsTestState {
  /** The global storage GİB's rules are installed into (src/gib/ruleStore.ts). */
  storageRoot: string;
  /** Restarts the rules worker on what is installed now (as an install does) and re-checks. */
  reload(): Promise<void>;
}

/** Registers the diagnostics and their quick fixes; returns the test hook's state. */
export function registerGibDiagnostics(context: vscode.ExtensionContext): () => GibDiagnosticsTestState {
  let loading: Promise<GibRules> | undefined;
  const rules = (): Promise<GibRules> => {
    if (!loading) {
      const loaded = import('../../shell/gibRules').then(({ gibRules }) => {
        const shared = gibRules(context);
        // Rules installed here or in another window: every open UBL-TR document gets the new verdict.
        context.subscriptions.push(shared.onDidChangeRules(() => diagnostics.refreshAll()));
        return shared;
      });
      loaded.catch(() => loading === loaded && (loading = undefined));
      loading = loaded;
    }
    return loading;
  };
  const diagnostics = new GibDiagnostics(rules);
  context.subscriptions.push(diagnostics, vscode.languages.registerCodeActionsProvider(DIAGNOSED_DOCUMENTS, new GibRulesCodeActions(), GibRulesCodeActions.metadata));
  // Documents open before the feature loaded are checked once activate() has returned.
  setTimeout(() => diagnostics.refreshAll(), 0);
  return () => ({ storageRoot: context.globalStorageUri.fsPath, reload: async () => (await rules()).reload() });
}
