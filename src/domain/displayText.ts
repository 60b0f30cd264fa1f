// Server text on its way to a label, description, tooltip, quick pick item, status bar entry or
// profile name: characters that would change how the text or the text around it reads are dropped.
// Bidi controls (U+202E turns "fdp.exe" around), invisible marks, C0/C1 controls; line breaks and
// tabs become one space. Pure, no imports: the shell's status bar and profile store load it.

/**
 * Dropped outright: C0 and C1 controls (but tab and line breaks, which become spaces), the bidi
 * embeddings, overrides and isolates (U+202A–202E, U+2066–2069), the marks U+200E, U+200F and U+061C,
 * zero-width space, word joiner and invisible operators (U+200B, U+2060–2064), the deprecated format
 * controls (U+206A–206F), U+180E, the byte order mark / zero-width no-break space (U+FEFF), the
 * interlinear annotation marks (U+FFF9–FFFB), and lone surrogates (half a character). Zero-width
 * (non-)joiners U+200C/U+200D stay: scripts and emoji need them.
 */
// Matching control characters is this module's job.
// eslint-disable-next-line no-control-regex
const DROPPED = /[\u0000-\u0008\u000E-\u001F\u007F-\u0084\u0086-\u009F\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Tab, line feed, vertical tab, form feed, carriage return, NEL, line and paragraph separators. */
// eslint-disable-next-line no-control-regex -- as above
const BREAKS = /[\t\n\u000B\u000C\r\u0085\u2028\u2029]+/g;

/**
 * The text a person should see: the characters above dropped, line breaks as one space, and the
 * ends trimmed. Never changes what the text says, only what would disguise it.
 */
export function displayText(text: string): string {
  return text.replace(DROPPED, '').replace(BREAKS, ' ').trim();
}

/** The same characters dropped, line breaks kept: for multi-line tooltips and messages. */
export function withoutHiddenCharacters(text: string): string {
  return text.replace(DROPPED, '');
}

/** `displayText` of a value that may be missing or not text: `fallback` when nothing is left. */
export function displayTextOr(value: unknown, fallback: string): string {
  if (typeof value !== 'string' && typeof value !== 'number') return fallback;
  const shown = displayText(String(value));
  return shown === '' ? fallback : shown;
}
