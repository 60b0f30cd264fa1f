// Opening the document preview and the template studio, and reading their pages, as the preview and
// design-channel scenarios do: one copy of the waits each of them needs.
import type { FrameLocator } from 'playwright-core';
import type { Workbench } from './harness';
import { openFile, runAsking, waitUntil } from './harness';

/** The preview page (our page) of the panel whose tab title starts with `title`. */
export async function previewPage(wb: Workbench, title: string): Promise<FrameLocator> {
  // The tab first: a preview that follows the editor takes its new title a moment after the switch, and
  // until then the last webview shown (another panel) would be taken for it.
  await wb.page.locator(`.tabs-container .tab[aria-label^="${title}"]`).first().waitFor({ state: 'attached', timeout: 30_000 });
  // A panel just opened may show its webview a moment after its tab.
  const frame = await waitUntil(() => wb.webview(title).catch(() => undefined), `the webview of "${title}"`, 30_000, 500);
  await frame.locator('#toolbar').waitFor();
  return frame;
}

/** A frame's text, white space folded. */
export async function frameText(frame: FrameLocator): Promise<string> {
  return (await frame.locator('body').innerText()).replace(/\s+/g, ' ');
}

/** Waits until the design's frame shows every one of `texts`; returns its text (the last one seen, in the error). */
export async function designShows(preview: FrameLocator, texts: string[], timeoutMs = 30_000): Promise<string> {
  const design = preview.frameLocator('iframe#design');
  let last = '';
  return waitUntil(async () => {
    last = await frameText(design).catch(() => '');
    return texts.every((t) => last.includes(t)) ? last : undefined;
  }, `the design to show ${texts.join(', ')}`, timeoutMs, 250).catch((e: Error) => {
    throw new Error(`${e.message}; it shows: ${last.slice(0, 400)}`);
  });
}

/** Focuses the first editor group by a click on its tab: keys pressed while a webview has the focus go to the webview. */
export async function focusFirstGroup(wb: Workbench): Promise<void> {
  await wb.page.locator('.editor-group-container').first().locator('.tabs-container .tab.active').first().click();
}

/** Opens a workspace file in the first editor group, so the preview beside it stays in view. */
export async function openInFirstGroup(wb: Workbench, name: string): Promise<void> {
  await focusFirstGroup(wb);
  await openFile(wb.page, name);
}

/**
 * Runs a palette command that opens a quick pick of its own. The palette lists the commands whose `when`
 * holds as it opens; an editor switch a moment before may not be in it yet, so it is opened again.
 */
export async function runPicking(wb: Workbench, title: string): Promise<void> {
  await waitUntil(async () => {
    try {
      await runAsking(wb.page, title);
      return true;
    } catch {
      await wb.page.keyboard.press('Escape');
      return undefined;
    }
  }, `"${title}" in the palette`, 60_000, 500);
}

/**
 * The template studio of the workspace design `design` with the built-in sample `invoice`: opened
 * through "Preview Design with Invoice…", or shown again when its tab is already there.
 */
export async function openStudio(wb: Workbench, design: string, invoice: string): Promise<FrameLocator> {
  const title = `Design ${design} with`;
  if ((await wb.page.locator(`.tabs-container .tab[aria-label^="${title}"]`).count()) === 0) {
    await openInFirstGroup(wb, design);
    await runPicking(wb, 'Nilvera: Preview Design with Invoice…');
    await wb.quickPick(invoice);
  }
  return previewPage(wb, title);
}
