// The preview page's HTML and the policies, pure (no vscode), so the unit tests check what ships.
// A design's output goes into a srcdoc frame, which inherits this page's policy on top of its own (CSP3).
// The frame is sandboxed with no permissions at all: its scripts do not run, so nothing in it can
// open a channel that CSP does not cover (WebRTC's STUN/TURN, which no CSP directive stops in Chromium
// 156). Only the studio, when its user turns scripts on (README: "What a design can and cannot do"),
// lists the design nonce, which the page puts on the design's inline scripts. Everything else stays
// shut: default-src 'none', images only from data: and the extension's assets.
import { pagePolicy, webviewPage, type PageParts } from '../webviews/page';
import type { PanelKind } from './protocol';

/**
 * The design frame's own policy (the page's, which it inherits, is as strict). `webrtc 'block'` is
 * CSP3's switch for WebRTC; Chromium 156 does not know it yet (it says so in the console) and it costs
 * nothing where it is known.
 */
export function framePolicy(scripts: boolean): string {
  return `default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src ${scripts ? "'unsafe-inline'" : "'none'"}; webrtc 'block'`;
}

/** The sandbox of the design frame: none of the permissions, unless the studio's user allowed scripts. */
export function frameSandbox(scripts: boolean): string {
  return scripts ? 'allow-scripts' : '';
}

/** The page's policy; the design nonce only in the studio (the document preview never runs a design's scripts). */
export function previewPolicy(cspSource: string, pageNonce: string, designNonce?: string): string {
  return pagePolicy(cspSource, designNonce ? [pageNonce, designNonce] : [pageNonce], "'unsafe-inline'");
}

export type PreviewPageParts = Pick<PageParts, 'title' | 'language' | 'scriptUri'> & {
  kind: PanelKind;
  cspSource: string;
  pageNonce: string;
  /** The studio's nonce for a design's scripts (ignored for the document preview). */
  designNonce: string;
};

export function previewPage(p: PreviewPageParts): string {
  const designNonce = p.kind === 'studio' ? p.designNonce : '';
  return webviewPage({
    title: p.title,
    language: p.language,
    policy: previewPolicy(p.cspSource, p.pageNonce, designNonce || undefined),
    scriptUri: p.scriptUri,
    scriptNonce: p.pageNonce,
    bodyAttributes: ` class="${p.kind}" data-design-nonce="${designNonce}"`,
    // One level-one heading (the document shown) in the toolbar, the rest in the main landmark; the
    // structured view scrolls on its own, so it is a named region that takes the keyboard focus.
    body: `<header id="toolbar">
<h1 id="title"></h1>
<button type="button" data-mode="design" data-label="mode.design"></button>
<button type="button" data-mode="structured" data-label="mode.structured"></button>
<button type="button" id="scripts" class="studio-only" aria-pressed="false" data-label="studio.scripts"></button>
<button type="button" id="pick" class="studio-only" data-label="studio.pick"></button>
<button type="button" id="upload" class="studio-only primary" data-label="studio.upload"></button>
</header>
<main id="content">
<div id="banner" role="status" hidden></div>
<div id="problem" role="alert" hidden></div>
<iframe id="design" sandbox="${frameSandbox(false)}" hidden></iframe>
<div id="structured" role="region" tabindex="0"></div>
</main>`,
  });
}
