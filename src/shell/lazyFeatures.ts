// Features loaded on first use. activate() registers, for every feature, a stub per command id; the
// first call of any of them (or a tree, hover, diagnostics or form shell asking for the feature)
// requires the feature's bundle, runs its activateFeature() once, and hands the call to the handler the
// feature registered through commandRunner. esbuild splits the bundle at each feature's `import()`
// (esbuild.js), so nothing of a feature is read from disk before it is used.
import * as vscode from 'vscode';
import { expectLazyCommand, lazyHandler, runCommand } from './commandRunner';
import { log } from './log';
import type { ShellServices } from './services';

/** What a feature bundle exports. */
export interface FeatureModule {
  /** Registers the feature's commands and listeners; called once, on first use. */
  activateFeature(context: vscode.ExtensionContext, shell: ShellServices): void;
}

export interface FeatureDefinition<M extends FeatureModule = FeatureModule> {
  /** The name in logs and in the bundle test (esbuild.js names the chunk after the entry file). */
  readonly name: string;
  readonly load: () => Promise<M>;
  /** The command ids that get a stub at activation (the feature may register more: src/features/index.ts). */
  readonly commands: readonly string[];
}

/** Command ids of the seams the extension-host tests use. */
const TEST_SEAM_PREFIX = 'nilvera.internal.';

/**
 * The command ids of a feature that get a stub at activation: the test seams (`nilvera.internal.*`)
 * only in the extension-host tests; elsewhere nothing calls them before their feature is loaded.
 */
export function stubbedCommands(definition: FeatureDefinition, inTests: boolean): readonly string[] {
  return definition.commands.filter((id) => inTests || !id.startsWith(TEST_SEAM_PREFIX));
}

export class LazyFeature<M extends FeatureModule = FeatureModule> {
  private loading: Promise<M> | undefined;

  constructor(
    readonly definition: FeatureDefinition<M>,
    private readonly context: vscode.ExtensionContext,
    private readonly shell: ShellServices,
  ) {}

  /** Whether the feature was asked for (its loading started). */
  get loaded(): boolean {
    return this.loading !== undefined;
  }

  /** The feature's module, loaded and activated once. */
  module(): Promise<M> {
    if (!this.loading) {
      const loading = (async () => {
        const started = performance.now();
        const module = await this.definition.load();
        module.activateFeature(this.context, this.shell);
        log.info(`Loaded the ${this.definition.name} feature in ${(performance.now() - started).toFixed(1)} ms.`);
        return module;
      })();
      this.loading = loading;
      // A bundle that failed to load is tried again on the next use (the caller shows the error).
      loading.catch(() => {
        if (this.loading === loading) this.loading = undefined;
      });
    }
    return this.loading;
  }

  /** One stub per command id (stubbedCommands): loads the feature, then runs the handler it registered. */
  registerStubs(): vscode.Disposable[] {
    return stubbedCommands(this.definition, this.context.extensionMode === vscode.ExtensionMode.Test).map((id) => {
      expectLazyCommand(id);
      return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          await this.module();
        } catch (error) {
          // Shown like any command failure (the wrapper logs it and offers the log).
          return runCommand(id, () => Promise.reject(error), args);
        }
        const handler = lazyHandler(id);
        if (!handler) throw new Error(`The ${this.definition.name} feature did not register ${id}.`);
        return handler(...args);
      });
    });
  }
}
