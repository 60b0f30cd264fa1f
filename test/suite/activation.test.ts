// First extension-host tests: the extension activates, and everything package.json contributes
// (commands, view containers, views) is live. Lists are read from the manifest at run time.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID } from '../../src/constants';
import type { ActivationThread } from '../../src/shell/activationSteps';
import { suiteLog } from './report';

interface Manifest {
  contributes?: {
    commands?: Array<{ command: string }>;
    viewsContainers?: Record<string, Array<{ id: string; title: string }>>;
    views?: Record<string, Array<{ id: string; name: string; type?: string }>>;
  };
}

function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded in this host`);
  return ext;
}

/**
 * Resolves once this thread's timers have run on time (late by under 2 ms) for a whole second, or
 * after 15 s; with how long that took.
 */
async function hostSettled(): Promise<number> {
  const started = performance.now();
  let quietSince = started;
  while (performance.now() - started < 15_000) {
    const asked = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = performance.now();
    if (now - asked > 22) quietSince = now;
    else if (now - quietSince >= 1000) break;
  }
  return performance.now() - started;
}

suite('Extension activation', () => {
  test('activates and reports how long activate() took', async function () {
    const ext = extension();
    // The benchmark's second series (npm run bench -- shell) activates once the extension host has
    // settled after start-up, as when a user opens the view or runs a command: what activate() costs
    // without the workbench's start-up competing for the same cores.
    if (process.env.NILVERA_ACTIVATION_SETTLE && !ext.isActive) {
      this.timeout(30_000);
      suiteLog(`    activation: waited ${(await hostSettled()).toFixed(0)} ms for the extension host to settle`);
    }
    // NILVERA_ACTIVATION_NO_LAZY=1 (npm run bench -- shell): V8 compiles what loads from here on eagerly, ours and the floor
    // alike, so the parts show how much of activate() is compiling functions on their first call (CONTRIBUTING).
    if (process.env.NILVERA_ACTIVATION_NO_LAZY) (await import('node:v8')).setFlagsFromString('--no-lazy');
    const wasActive = ext.isActive;
    const started = performance.now();
    const api = (await ext.activate()) as { activationMs?: unknown; activationSteps?: ReadonlyArray<{ step: string; ms: number }> } | undefined;
    const waitedMs = performance.now() - started;
    assert.equal(ext.isActive, true);
    // Contract with the extension shell: activate() returns { activationMs: number }.
    assert.ok(api && typeof api.activationMs === 'number' && Number.isFinite(api.activationMs) && api.activationMs >= 0,
      `activate() should return { activationMs: number }, got ${JSON.stringify(api)}`);
    suiteLog(`    activation: activate() took ${api.activationMs.toFixed(1)} ms (reported by the extension); ` +
      `${wasActive ? 'already active before the test' : `ext.activate() resolved after ${waitedMs.toFixed(1)} ms`}`);
    // Its parts (npm run bench -- shell prints their medians): every registration activate() makes, in order, adding up to the whole.
    const steps = api.activationSteps ?? [];
    assert.deepEqual(steps.map((s) => s.step), ['shell commands', 'feature commands', 'tree views', 'hover provider', 'webview panel serializers', 'listeners scheduled']);
    assert.ok(steps.every((s) => s.ms >= 0), JSON.stringify(steps));
    assert.ok(Math.abs(steps.reduce((sum, s) => sum + s.ms, 0) - api.activationMs) < 0.01, `the steps add up to ${api.activationMs} ms: ${JSON.stringify(steps)}`);
    suiteLog(`    activation steps (ms): ${steps.map((s) => `${s.step}: ${s.ms.toFixed(2)}`).join('; ')}`);
    // The same parts' time on the CPU (wall time less the thread's waits for a core; Linux, Test mode:
    // src/shell/activationSteps.ts), which the benchmark prints beside the wall times.
    const thread = (api as { testing?: { activationThread?: ActivationThread } }).testing?.activationThread;
    if (process.platform !== 'linux') return;
    assert.ok(thread, 'on Linux the activation in Test mode measures its thread');
    assert.deepEqual(thread.steps.map((s) => s.step), steps.map((s) => s.step));
    assert.ok(thread.onCpuMs > 0 && thread.onCpuMs <= api.activationMs + 1e-6 && thread.waitedMs >= 0, JSON.stringify(thread));
    assert.ok(Math.abs(thread.onCpuMs + thread.waitedMs - api.activationMs) < 0.01, `on the CPU and waiting add up to ${api.activationMs} ms: ${JSON.stringify(thread)}`);
    suiteLog(`    activation on CPU (ms): total ${thread.onCpuMs.toFixed(3)}; ${thread.steps.map((s) => `${s.step}: ${s.ms.toFixed(3)}`).join('; ')}`);
    suiteLog(`    activation thread: waited ${thread.waitedMs.toFixed(3)} ms for a core, ${thread.slices} slice(s); context switches ${thread.voluntarySwitches} voluntary, ${thread.nonvoluntarySwitches} nonvoluntary`);
  });

  test('registers every command in contributes.commands at activation', async () => {
    const contributed = ((extension().packageJSON as Manifest).contributes?.commands ?? []).map((c) => c.command);
    assert.ok(contributed.length > 0, 'package.json contributes no commands');
    await extension().activate();
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  test("opens every contributed view container; every contributed view's focus command succeeds and the customers tree becomes visible", async () => {
    const contributes = (extension().packageJSON as Manifest).contributes ?? {};
    const containers = Object.values(contributes.viewsContainers ?? {}).flat();
    const views = Object.values(contributes.views ?? {}).flat();
    assert.ok(containers.length > 0, 'package.json contributes no view container');
    assert.ok(views.length > 0, 'package.json contributes no views');
    for (const c of containers) {
      await vscode.commands.executeCommand(`workbench.view.extension.${c.id}`);
    }
    // `<viewId>.focus` exists for every registered view; it rejects when the view cannot be shown.
    for (const v of views) {
      await vscode.commands.executeCommand(`${v.id}.focus`);
    }
    // The one view whose state the extension exposes: after its focus command, it is visible.
    const trees = await vscode.commands.executeCommand<{ customersView: vscode.TreeView<unknown> } | undefined>('nilvera.internal.trees');
    assert.ok(trees, 'the trees test hook returned nothing');
    await vscode.commands.executeCommand('nilvera.customers.focus');
    const until = Date.now() + 5000;
    while (!trees.customersView.visible && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    assert.equal(trees.customersView.visible, true, 'the customers tree is visible after nilvera.customers.focus');
    suiteLog(`    views: ${containers.length} container(s), ${views.length} view focus command(s) succeeded`);
  });
});

suite('Features loaded on first use', () => {
  interface Testing {
    features: ReadonlyArray<{ name: string; loaded: boolean; parts(): Promise<unknown>; commands: readonly string[] }>;
    hasHandler(id: string): boolean;
  }
  const testing = async () => ((await extension().activate()) as { testing: Testing }).testing;

  test('activation loads no feature that was not used; the connection and profile features wait for their commands', async () => {
    const { features } = await testing();
    // This suite runs first: the views were focused above (views feature), nothing ran Check Connection or a profile command.
    const byName = new Map(features.map((f) => [f.name, f]));
    assert.equal(byName.get('connection')?.loaded, false, 'the connection feature loaded before its first command');
    assert.equal(byName.get('profiles')?.loaded, false, 'the profiles feature loaded before its first command');
    assert.equal(byName.get('views')?.loaded, true, 'showing the views loads their feature');
    suiteLog(`    loaded after activation and the view focus: ${features.filter((f) => f.loaded).map((f) => f.name).join(', ') || 'none'}`);
  });

  test('each feature, once loaded, has a handler for every command of its table', async () => {
    const { features, hasHandler } = await testing();
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(features.flatMap((f) => f.commands.filter((id) => !registered.has(id))), [], 'every command is registered at activation');
    const missing: string[] = [];
    for (const feature of features) {
      await feature.parts();
      for (const id of feature.commands) if (!hasHandler(id)) missing.push(`${feature.name}: ${id}`);
    }
    assert.deepEqual(missing, []);
  });
});
