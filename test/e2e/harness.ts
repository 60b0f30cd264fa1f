// The UI-suite harness: a real VS Code (code-server) with the packaged extension installed, a sandbox
// API behind it, and headless Chromium driving the workbench the way a person does. Scenarios call
// openWorkbench() and use the helpers below; every helper waits for what it needs on screen.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import { codeServer, languagePacks, repoRoot, resultsDir, vsixPath } from './repo';
import type { SandboxProcess, SandboxProcessOptions } from './sandboxProcess';
import { startSandboxProcess } from './sandboxProcess';

export interface OpenWorkbenchOptions {
  /** Folder name under test-results/e2e/ for this scenario's screenshots. */
  scenario: string;
  /** Sandbox started for this workbench (default: one with the sandbox's default data); false for none. */
  sandbox?: SandboxProcessOptions | false;
  /** Pass the sandbox's key to the extension (NILVERA_SANDBOX_KEY); default true. */
  withKey?: boolean;
  /** User settings, over the harness defaults (sandbox environment, no welcome page, no AI features). */
  settings?: Record<string, unknown>;
  /** Display language, e.g. 'tr' (code-server --locale, with the fixture language pack; see scripts/language-pack.js). */
  locale?: string;
  /** More Chromium switches for this workbench's browser, e.g. ['--disable-features=XSLT']. */
  chromiumArgs?: string[];
  /** Writes into the user-data folder before code-server starts (e.g. an extension's globalStorage: User/globalStorage/<extension id>). */
  prepareUserData?: (userDataDir: string) => Promise<void> | void;
}

export interface Workbench {
  page: Page;
  sandbox: SandboxProcess | undefined;
  /** Runs a command from the palette by its title as shown ("Nilvera: Show Log" or "Show Log"). */
  runCommand(title: string): Promise<void>;
  /** Titles the palette lists for `filter`; the palette is closed again unless `keepOpen` (then press Escape). */
  paletteItems(filter: string, options?: { keepOpen?: boolean }): Promise<string[]>;
  /** Clicks the activity-bar entry with this title and waits for its side bar. */
  openContainer(title: string): Promise<void>;
  /** The pane of a view in the side bar (by its name as shown). */
  view(viewName: string): Locator;
  /** Labels of the rows a tree view shows. */
  treeRows(viewName: string): Promise<string[]>;
  clickTreeItem(viewName: string, label: string): Promise<void>;
  /** Right-clicks a tree row and chooses `action` from its context menu. */
  contextMenu(viewName: string, label: string, action: string): Promise<void>;
  /** Labels of the items the open quick pick shows. */
  quickPickItems(): Promise<string[]>;
  /** Chooses an item of the open quick pick by its label. */
  quickPick(label: string): Promise<void>;
  /** Types into the open input box and accepts it. */
  inputBox(text: string): Promise<void>;
  /** Texts of the notifications on screen (toasts and, when open, the notification center). */
  notifications(): Promise<string[]>;
  /** A webview's content frame: by the title of its editor tab, or by index among the visible webviews. */
  webview(titleOrIndex: string | number): Promise<FrameLocator>;
  /** Saves test-results/e2e/<scenario>/<nn>-<step>.png and returns its path. */
  screenshot(step: string): Promise<string>;
  close(): Promise<void>;
}

const DEFAULT_SETTINGS: Record<string, unknown> = {
  'nilvera.environment': 'sandbox',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'chat.disableAIFeatures': true,
  'update.mode': 'none',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

/** The code-server version run-e2e.js chose (--version), else the default. */
const codeServerVersion = process.env.NILVERA_E2E_CS_VERSION || undefined;

const QUICK_INPUT = '.quick-input-widget';
const QUICK_INPUT_ROWS = `${QUICK_INPUT} .quick-input-list .monaco-list-row`;
const WAIT_MS = 20_000;

/** Opens a workspace file through Quick Open (Ctrl+P), as a person would, and waits for its tab. */
export async function openFile(page: Page, name: string): Promise<void> {
  const box = page.locator('.quick-input-widget .quick-input-box input');
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: name }).first();
  // The file's own tab: a preview beside it that follows the active editor carries the same name.
  const tab = page.locator('.tabs-container .tab.active:not([data-resource-name^="webview-"])', { hasText: name });
  // Quick Open answers from the file search's cache: a file written just before may only be listed once the
  // watcher has seen it, so ask again (a closed and reopened Quick Open searches afresh) before giving up.
  // It also closes when the focus moves away (a webview beside it re-rendering takes the focus), while it
  // opens or just before the Enter: then the box goes inert and hidden under the fill, or the Enter opens
  // nothing, and the next attempt opens it again.
  for (let attempt = 1; ; attempt++) {
    const last = attempt === 4;
    await page.keyboard.press('Control+P');
    const typed = await box
      .waitFor({ state: 'visible', timeout: 5_000 })
      .then(() => box.fill(name, { timeout: 5_000 }))
      .then(() => true, () => false);
    const listed = typed && (await row.waitFor({ timeout: 8_000 }).then(() => true, () => false));
    const opened =
      listed &&
      (await box
        .press('Enter', { timeout: 5_000 })
        .then(() => tab.waitFor({ timeout: last ? WAIT_MS : 8_000 }))
        .then(() => true, () => false));
    if (opened) return;
    if (last) throw new Error(listed ? `Quick Open listed "${name}", but its tab never became the active one` : `Quick Open never listed "${name}"`);
    console.log(`[e2e] Quick Open: "${name}" ${listed ? 'listed but not opened' : 'not listed'} (attempt ${attempt}), again`);
    await page.keyboard.press('Escape');
    await page.waitForTimeout(1_000);
  }
}

/** The Problems panel's rows (their texts, whitespace folded), the panel opened with Ctrl+Shift+M when it is not shown. */
export async function problems(page: Page): Promise<string[]> {
  const panel = page.locator('.markers-panel');
  if (!(await panel.isVisible().catch(() => false))) await page.keyboard.press('Control+Shift+M');
  await panel.waitFor({ state: 'visible' });
  return (await panel.locator('.monaco-list-row').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
}

/**
 * Runs a palette command that asks something at once. (Workbench.runCommand waits for the palette to
 * close, which a command that opens its own input box never lets happen before the time limit.)
 */
export async function runAsking(page: Page, title: string): Promise<void> {
  const box = page.locator('.quick-input-widget .quick-input-box input');
  await page.keyboard.press('F1');
  await box.waitFor({ state: 'visible' });
  await box.fill(`>${title}`);
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: title }).first();
  await row.waitFor();
  await row.click();
  // The command's own input replaces the palette: wait until the palette's text is gone.
  await waitUntil(async () => ((await box.inputValue().catch(() => '')).startsWith('>') ? undefined : true), `the input of "${title}"`, 10_000);
}

/**
 * Answers VS Code's simple file dialog (code-server) with a full path. The dialog fills in its folder
 * and lists it after it opens; a path typed before that is overwritten, so wait, type until the path
 * stays, and type again if the dialog neither closed nor gave its place to the command's next question.
 */
export async function answerFileDialog(page: Page, file: string): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const box = widget.locator('.quick-input-box input');
  await box.waitFor({ state: 'visible' });
  await waitUntil(async () => ((await box.inputValue()).length > 0 && (await widget.locator('.quick-input-list .monaco-list-row').count()) > 0 ? true : undefined), 'the file dialog to list its folder');
  for (let attempt = 0; attempt < 3; attempt++) {
    await waitUntil(async () => {
      await box.fill(file);
      await page.waitForTimeout(300);
      return (await box.inputValue()) === file ? true : undefined;
    }, `the file dialog to keep ${file}`);
    await box.press('Enter');
    const taken = await waitUntil(async () => (!(await widget.isVisible()) || (await box.inputValue()) !== file ? true : undefined), 'the file dialog to close', 3000).then(
      () => true,
      () => false,
    );
    if (taken) return;
  }
  throw new Error(`the file dialog did not take ${file}`);
}

/**
 * Opens a context menu with `open` and runs `action` from it (hover, then Enter: a plain click on the
 * item was not always taken). A menu that closes before the item is chosen is opened again, up to
 * three times: VS Code closes it when the list under it re-renders (a customers row menu vanished
 * mid-hover right after a delete had refreshed the view).
 */
export async function chooseMenuItem(page: Page, action: string, open: () => Promise<void>): Promise<void> {
  const item = page.locator('.monaco-menu .action-item', { hasText: action }).first();
  for (let attempt = 1; ; attempt++) {
    await open();
    try {
      await item.waitFor({ timeout: 8_000 });
      await item.hover({ timeout: 5_000 });
      break;
    } catch (error) {
      if (attempt === 3) throw error;
      await page.keyboard.press('Escape');
    }
  }
  await page.keyboard.press('Enter');
  await page.locator('.monaco-menu').first().waitFor({ state: 'hidden' }).catch(() => undefined);
}

async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage', ...extraArgs],
  });
}

function fileSafe(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'step';
}

/** The extensions folder with the VSIX installed: the runner's shared one, or a fresh install. */
function extensionsFor(workDir: string, userDataDir: string): string {
  const shared = process.env.NILVERA_E2E_EXTENSIONS_DIR;
  if (shared) return shared;
  const extensionsDir = path.join(workDir, 'extensions');
  const vsix = vsixPath();
  if (!fs.existsSync(vsix)) throw new Error(`${vsix} is missing: run \`npm run package\` (or use npm run test:e2e)`);
  codeServer().installExtension(vsix, { version: codeServerVersion, userDataDir, extensionsDir, env: codeServer().isolatedEnv(workDir) });
  return extensionsDir;
}

export async function openWorkbench(options: OpenWorkbenchOptions): Promise<Workbench> {
  const shotsDir = path.join(resultsDir, fileSafe(options.scenario));
  fs.rmSync(shotsDir, { recursive: true, force: true });
  fs.mkdirSync(shotsDir, { recursive: true });
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-e2e-'));
  const userDataDir = path.join(workDir, 'user-data');
  const workspace = path.join(workDir, 'workspace');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...DEFAULT_SETTINGS, ...options.settings }, null, 2));

  const cleanups: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    cleanups.length = 0;
    fs.rmSync(workDir, { recursive: true, force: true });
  };

  const started = Date.now();
  const mark = (what: string) => `${what} ${((Date.now() - started) / 1000).toFixed(1)} s`;
  try {
    const sandbox = options.sandbox === false ? undefined : await startSandboxProcess(options.sandbox ?? {});
    if (sandbox) cleanups.push(() => sandbox.stop());
    const env: Record<string, string> = {};
    if (sandbox) {
      env.NILVERA_SANDBOX_URL = sandbox.url;
      if (options.withKey !== false) env.NILVERA_SANDBOX_KEY = sandbox.keys.full;
    }
    await options.prepareUserData?.(userDataDir);
    const extensionsDir = extensionsFor(workDir, userDataDir);
    if (options.locale && options.locale !== 'en') languagePacks().installLanguagePack(options.locale, { version: codeServerVersion, workDir, userDataDir, extensionsDir });
    const server = await codeServer().startServer({ version: codeServerVersion, workDir, userDataDir, extensionsDir, env, locale: options.locale });
    cleanups.push(() => server.stop());
    const ready = mark('code-server ready');
    const browser = await launchBrowser(options.chromiumArgs);
    cleanups.push(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(WAIT_MS);
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
    await page.locator('.monaco-workbench .part.activitybar').waitFor();
    await page.locator('.monaco-workbench .part.statusbar').waitFor();
    const loaded = mark('workbench shown');
    await waitForContributions(page, options.locale);
    console.log(`[e2e] ${options.scenario}: ${ready}, ${loaded}, ${mark('extension contributions shown')}`);
    return makeWorkbench(page, sandbox, shotsDir, close);
  } catch (e) {
    await close();
    throw e;
  }
}

/**
 * Waits until the workbench shows the extension's activity-bar entry: from then on its commands and
 * views are known to the palette (before that, the palette answers "No matching commands").
 */
async function waitForContributions(page: Page, locale: string | undefined): Promise<void> {
  const container = manifest().contributes?.viewsContainers?.activitybar?.[0];
  if (!container) return;
  await page.locator(`.part.activitybar .action-item a[aria-label^="${nls(container.title, locale)}"]`).waitFor({ timeout: 60_000 });
}

function makeWorkbench(page: Page, sandbox: SandboxProcess | undefined, shotsDir: string, close: () => Promise<void>): Workbench {
  let shot = 0;

  const quickInput = page.locator(QUICK_INPUT);
  const quickInputBox = page.locator(`${QUICK_INPUT} .quick-input-box input`);

  async function rowLabel(row: Locator): Promise<string> {
    const name = row.locator('.label-name').first();
    const text = (await name.count()) > 0 ? await name.textContent() : await row.getAttribute('aria-label');
    return (text ?? '').replace(/\s+/g, ' ').trim();
  }

  async function visibleQuickPickLabels(): Promise<string[]> {
    await quickInput.waitFor({ state: 'visible' });
    const rows = page.locator(QUICK_INPUT_ROWS);
    const labels: string[] = [];
    for (let i = 0; i < (await rows.count()); i++) labels.push(await rowLabel(rows.nth(i)));
    return labels;
  }

  async function openPalette(filter: string) {
    // F1 is the palette in every keymap; retry once when the first key press lands before focus.
    for (let attempt = 0; attempt < 2; attempt++) {
      await page.keyboard.press('F1');
      try {
        await quickInputBox.waitFor({ state: 'visible', timeout: 5000 });
        break;
      } catch (e) {
        if (attempt === 1) throw e;
        await page.locator('.part.statusbar').click({ position: { x: 2, y: 2 } }).catch(() => undefined);
      }
    }
    await quickInputBox.fill(`>${filter}`);
  }

  /** Waits until the list shows a row whose label is `title` or ends with ": title". */
  function paletteRow(title: string): Locator {
    const exact = new RegExp(`(^|: )${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
    return page.locator(QUICK_INPUT_ROWS).filter({ has: page.locator('.label-name', { hasText: exact }) }).first();
  }

  const pane = (viewName: string) => page.locator(`.pane:has(.pane-header[aria-label^="${viewName}"])`);
  const treeRow = (viewName: string, label: string) => pane(viewName).locator('.monaco-list-row', { hasText: label }).first();

  return {
    page,
    sandbox,
    async runCommand(title) {
      // The palette lists the commands whose `when` holds as it opens; one that a context key set a
      // moment later (the key just saved) shows only when the palette is opened again.
      const deadline = Date.now() + 30_000;
      for (;;) {
        await openPalette(title);
        const row = paletteRow(title);
        try {
          await row.waitFor({ timeout: 5000 });
        } catch (e) {
          if (Date.now() > deadline) throw e;
          await page.keyboard.press('Escape');
          continue;
        }
        break;
      }
      const row = paletteRow(title);
      await row.click();
      await quickInput.waitFor({ state: 'hidden' }).catch(() => undefined); // a command may open its own quick input
    },
    async paletteItems(filter, { keepOpen = false } = {}) {
      await openPalette(filter);
      const rows = page.locator(QUICK_INPUT_ROWS);
      await rows.first().waitFor().catch(() => undefined);
      // The list filters as the text arrives: wait until it stops changing.
      let labels: string[] = [];
      for (let i = 0; i < 10; i++) {
        await page.waitForTimeout(150);
        const now = (await visibleQuickPickLabels()).filter((l) => l !== 'No matching commands');
        if (now.join('\n') === labels.join('\n') && now.length > 0) break;
        labels = now;
      }
      // The list is virtualised: page through it so rows below the fold count too.
      const all = new Set(labels);
      for (let unchanged = 0, i = 0; unchanged < 2 && i < 50; i++) {
        const before = all.size;
        await page.keyboard.press('PageDown');
        await page.waitForTimeout(100);
        for (const l of await visibleQuickPickLabels()) if (l !== 'No matching commands') all.add(l);
        unchanged = all.size === before ? unchanged + 1 : 0;
      }
      if (!keepOpen) await page.keyboard.press('Escape');
      return [...all];
    },
    async openContainer(title) {
      const entry = page.locator(`.part.activitybar .action-item a[aria-label^="${title}"]`);
      await entry.waitFor();
      const sideBar = page.locator('.part.sidebar');
      const shown = await sideBar.locator(`.composite.title h2`).first().textContent().catch(() => '');
      if (!(await sideBar.isVisible()) || !(shown ?? '').toLowerCase().includes(title.toLowerCase())) await entry.click();
      await sideBar.locator('.composite.title h2', { hasText: new RegExp(title, 'i') }).waitFor();
    },
    view: pane,
    async treeRows(viewName) {
      const rows = pane(viewName).locator('.monaco-list-row');
      await pane(viewName).waitFor();
      const labels: string[] = [];
      for (let i = 0; i < (await rows.count()); i++) labels.push(((await rows.nth(i).getAttribute('aria-label')) ?? (await rows.nth(i).innerText())).trim());
      return labels;
    },
    async clickTreeItem(viewName, label) {
      await treeRow(viewName, label).click();
    },
    async contextMenu(viewName, label, action) {
      await chooseMenuItem(page, action, () => treeRow(viewName, label).click({ button: 'right' }));
    },
    quickPickItems: visibleQuickPickLabels,
    async quickPick(label) {
      await quickInputBox.waitFor({ state: 'visible' });
      await quickInputBox.fill(label);
      const row = page.locator(QUICK_INPUT_ROWS).filter({ has: page.locator('.label-name', { hasText: label }) }).first();
      await row.waitFor();
      await row.click();
    },
    async inputBox(text) {
      await quickInputBox.waitFor({ state: 'visible' });
      await quickInputBox.fill(text);
      await quickInputBox.press('Enter');
    },
    async notifications() {
      // One read of all of them: counting first and reading each after raced a toast closing in between
      // (the read then waited 20 s for an element that was gone).
      const messages = page.locator('.notification-toast .notification-list-item-message, .notifications-center .notification-list-item-message');
      return (await messages.allInnerTexts()).map((text) => text.trim());
    },
    async webview(titleOrIndex) {
      if (typeof titleOrIndex === 'string') {
        const tab = page.locator(`.tabs-container .tab[aria-label^="${titleOrIndex}"]`).first();
        if ((await tab.count()) > 0) await tab.click();
      }
      const outer = page.locator('iframe.webview.ready');
      await outer.first().waitFor({ state: 'attached' });
      // Hidden webviews stay in the DOM; the shown one is visible.
      const frames: Locator[] = [];
      for (let i = 0; i < (await outer.count()); i++) if (await outer.nth(i).isVisible()) frames.push(outer.nth(i));
      const pick = typeof titleOrIndex === 'number' ? frames[titleOrIndex] : frames[frames.length - 1];
      if (!pick) throw new Error(`no visible webview for ${JSON.stringify(titleOrIndex)}`);
      return pick.contentFrame().frameLocator('iframe#active-frame');
    },
    async screenshot(step) {
      shot += 1;
      const file = path.join(shotsDir, `${String(shot).padStart(2, '0')}-${fileSafe(step)}.png`);
      await page.screenshot({ path: file });
      return file;
    },
    close,
  };
}

/** The extension's manifest as packaged, for scenarios that adapt to what the shell contributes. */
export interface Manifest {
  contributes?: {
    commands?: Array<{ command: string; title: string; category?: string }>;
    viewsContainers?: Record<string, Array<{ id: string; title: string }>>;
    views?: Record<string, Array<{ id: string; name: string }>>;
    viewsWelcome?: Array<{ view: string; contents: string; when?: string }>;
    menus?: { commandPalette?: Array<{ command: string; when?: string }> };
  };
}

export function manifest(): Manifest {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
}

/** Resolves a `%key%` manifest string through package.nls[.<locale>].json (English by default). */
export function nls(value: string, locale?: string): string {
  const m = /^%(.+)%$/.exec(value);
  if (!m) return value;
  const read = (file: string) => (fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>) : {});
  const english = read(path.join(repoRoot, 'package.nls.json'));
  const localized = locale && locale !== 'en' ? read(path.join(repoRoot, `package.nls.${locale}.json`)) : {};
  return localized[m[1]] ?? english[m[1]] ?? value;
}

/** Polls `probe` until it returns something other than undefined; fails naming `what` after `timeoutMs`. */
export async function waitUntil<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 20_000, intervalMs = 100): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Waits until no notification on screen starts with `prefix`: a finished task's progress notification has closed. */
export async function notificationGone(wb: Workbench, prefix: string, timeoutMs = 10_000): Promise<void> {
  await waitUntil(async () => ((await wb.notifications()).some((n) => n.startsWith(prefix)) ? undefined : true), `the "${prefix}" notification to close`, timeoutMs, 200);
}

/** The folder the workbench opened (its `folder` URL parameter); the server's user data is next to it. */
export function workspaceFolder(page: Page): string {
  const folder = new URL(page.url()).searchParams.get('folder');
  if (!folder) throw new Error('the workbench opened no folder');
  return folder;
}

/** Runs a scenario's steps; on failure saves a screenshot of the moment before reporting it. */
export async function steps(wb: Workbench, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (e) {
    await wb.screenshot('failure').catch(() => undefined);
    throw e;
  }
}

/** A view's header in the side bar (by its name as shown). */
export function viewHeader(wb: Workbench, view: string): Locator {
  return wb.page.locator(`.pane-header[aria-label^="${view}"]`).first();
}

/**
 * Expands or collapses a view's section by clicking its header, until the header says so and still does
 * a moment later. A click while the side bar is still laying out its views can be lost: the
 * reconciliation scenario once found Account still open after folding it, and the view it needed
 * room for too short to show its rows.
 */
export async function setViewExpanded(wb: Workbench, view: string, expanded: boolean): Promise<void> {
  const h = viewHeader(wb, view);
  await h.waitFor();
  const asWanted = async () => ((await h.getAttribute('aria-expanded')) === 'true') === expanded;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (!(await asWanted())) await h.click();
    await wb.page.waitForTimeout(300);
    if (await asWanted()) return;
  }
  throw new Error(`The ${view} view did not ${expanded ? 'expand' : 'collapse'} after 5 clicks on its header.`);
}

/** Answers VS Code's modal dialog with the button `label`; gives the dialog's text. */
export async function dialogButton(wb: Workbench, label: string): Promise<string> {
  const dialog = wb.page.locator('.monaco-dialog-box');
  await dialog.waitFor();
  const text = await dialog.innerText();
  await dialog.locator('.monaco-button', { hasText: label }).first().click();
  await dialog.waitFor({ state: 'hidden' });
  return text;
}

/** Puts the cursor at a line and column of the active editor (Ctrl+G), so the line is on screen. */
export async function goToLine(page: Page, line: number, column: number): Promise<void> {
  await page.keyboard.press('Escape');
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`:${line}:${column}`);
  await input.press('Enter');
  await page.locator('.part.statusbar', { hasText: `Ln ${line}, Col ${column}` }).waitFor();
}
