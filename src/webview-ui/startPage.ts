// What both pages (forms, preview) start with: their style sheet, adopted as a constructable sheet (not
// an inline style, so the strict CSP needs no 'unsafe-inline'), and VS Code's API, which a page acquires once.

interface VsCodeApi<Message, State> {
  postMessage(message: Message): void;
  getState(): unknown;
  setState(state: State): void;
}
declare function acquireVsCodeApi<Message, State>(): VsCodeApi<Message, State>;

export function startPage<Message, State>(styles: string): VsCodeApi<Message, State> {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(styles);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  return acquireVsCodeApi<Message, State>();
}
