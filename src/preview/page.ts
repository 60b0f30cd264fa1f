// The preview page's HTML and the two policies, pure (no vscode), so the unit tests check what ships.
// The page's policy differs from the forms' in two points, both for the design's frame, which is a
// srcdoc frame and so inherits this page's policy on top of its own (CSP3):
// - script-src lists a second nonce, the design nonce, which the page puts on the design's own inline
//   scripts (the QR code designs draw); markup of the design never enters this page, only the frame;
// - style-src allows inline styles, which every design uses (style attributes, <style>).
// Everything else stays shut: default-src 'none' (so no frame may navigate anywhere, and no fetch,
// image, font or form goes to the network), images only from data: and the extension's assets.
import { pagePolicy, webviewPage } from '../webviews/page';
import type { PanelKind } from './protocol';

/** The design frame's own policy (the page's, which it inherits, is as strict). */
export const FRAME_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'";

export function previewPolicy(cspSource: string, pageNonce: string, designNonce: string): string {
  return pagePolicy(cspSource, [pageNonce, designNonce], "'unsafe-inline'");
}

export interface PreviewPageParts {
  kind: PanelKind;
  title: string;
  language: string;
  cspSource: string;
  scriptUri: string;
  pageNonce: string;
  designNonce: string;
}

export function previewPage(p: PreviewPageParts): string {
  return webviewPage({
    title: p.title,
    language: p.language,
    policy: previewPolicy(p.cspSource, p.pageNonce, p.designNonce),
    scriptUri: p.scriptUri,
    scriptNonce: p.pageNonce,
    bodyAttributes: ` class="${p.kind}" data-design-nonce="${p.designNonce}"`,
    body: `<header id="toolbar">
<span id="title"></span>
<button type="button" data-mode="design" data-label="mode.design"></button>
<button type="button" data-mode="structured" data-label="mode.structured"></button>
<button type="button" id="pick" class="studio-only" data-label="studio.pick"></button>
<button type="button" id="upload" class="studio-only primary" data-label="studio.upload"></button>
</header>
<div id="banner" role="status" hidden></div>
<div id="problem" role="alert" hidden></div>
<iframe id="design" sandbox="allow-scripts" hidden></iframe>
<main id="structured" aria-live="polite"></main>`,
  });
}
