// Without an API key: the activity-bar entry opens the Nilvera side bar, every contributed view is
// there with its welcome content, a welcome button starts its command, and nothing reaches the API.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Workbench } from '../index';
import { manifest, nls, openWorkbench } from '../index';

const contributes = manifest().contributes ?? {};
const container = contributes.viewsContainers?.activitybar?.[0];
let wb: Workbench | undefined;

/** Button labels in a viewsWelcome text: its `[label](command:...)` links on lines of their own. */
function welcomeButtons(contents: string): string[] {
  return [...contents.matchAll(/^\[([^\]]+)\]\(command:[^)]+\)$/gm)].map((m) => m[1]);
}

before(async () => {
  // A manifest without the container is a failure, not a reason to skip.
  assert.ok(container, 'package.json contributes no activity-bar view container');
  wb = await openWorkbench({ scenario: 'activity-bar', withKey: false });
});
after(async () => {
  await wb?.close();
});

test('the Nilvera entry opens every view with its welcome content, without calling the API', async () => {
  const w = wb!;
  await w.screenshot('workbench loaded');
  await w.openContainer(nls(container!.title));
  await w.screenshot('nilvera side bar');

  const expectedViews = (contributes.views?.[container!.id] ?? []).map((v) => nls(v.name));
  const headers = (await w.page.locator('.part.sidebar .pane-header h3.title').allInnerTexts()).map((t) => t.trim());
  assert.deepEqual(headers.map((h) => h.toLowerCase()), expectedViews.map((v) => v.toLowerCase()));

  // The first view's welcome content offers the buttons its viewsWelcome entries name.
  const firstView = contributes.views![container!.id][0];
  const offered = new Set((contributes.viewsWelcome ?? []).filter((e) => e.view === firstView.id).flatMap((e) => welcomeButtons(nls(e.contents))));
  // Opening the container activates the extension; until it has registered its trees VS Code shows
  // "There is no data provider…" (seen once on a loaded CI machine), so wait for the welcome content.
  const welcome = w.view(nls(firstView.name)).locator('.welcome-view-content .monaco-button');
  await welcome.first().waitFor({ state: 'visible', timeout: 30_000 });
  const buttons = (await welcome.allInnerTexts()).map((t) => t.trim());
  assert.ok(buttons.length > 0, 'no welcome buttons in the first view');
  for (const b of buttons) assert.ok(offered.has(b), `button "${b}" is not one of ${[...offered].join(', ')}`);

  // The first button (Set API Key) asks for the key in an input box; Escape leaves without one.
  await w.view(nls(firstView.name)).locator('.welcome-view-content .monaco-button').first().click();
  await w.page.locator('.quick-input-widget .quick-input-box input').waitFor({ state: 'visible' });
  await w.screenshot('welcome button asks for the key');
  await w.page.keyboard.press('Escape');

  // No key, no requests: the sandbox saw nothing.
  const requests = (await w.sandbox!.control('requests')) as Array<{ method: string; path: string }>;
  assert.deepEqual(requests.map((r) => `${r.method} ${r.path}`), []);
});
