// Where server text meets VS Code's UI: tree items, quick pick items and messages pass through here,
// so a bidi override, an invisible mark or a control character from the server never reaches a
// label, description, detail or tooltip (src/domain/displayText.ts says which characters).
import * as vscode from 'vscode';
import { displayText, withoutHiddenCharacters } from '../domain/displayText';

/** Cleans a tree item's label, description and tooltip in place, and returns it. */
export function cleanTreeItem<T extends vscode.TreeItem>(item: T): T {
  if (typeof item.label === 'string') item.label = displayText(item.label);
  else if (item.label) {
    const label = displayText(item.label.label);
    // Highlights count characters of the original text: they would mark the wrong ones.
    item.label = label === item.label.label ? item.label : { label };
  }
  if (typeof item.description === 'string') item.description = displayText(item.description);
  if (typeof item.tooltip === 'string') item.tooltip = withoutHiddenCharacters(item.tooltip);
  else if (item.tooltip instanceof vscode.MarkdownString) item.tooltip.value = withoutHiddenCharacters(item.tooltip.value);
  return item;
}

/**
 * Server text where VS Code draws `$(name)` as an icon (quick pick items, the status bar): each
 * `$(` escaped as `\$(`, which VS Code shows as the characters themselves.
 */
export function iconsAsText(text: string): string {
  return text.replace(/\$\(/g, '\\$(');
}

/** The icons our own pick items start with ("$(check) name"); anything else in `$(…)` is text. */
const OWN_ICON_PREFIX = /^\$\((?:check|circle-slash|star-full|edit|file-code|more|add)\) /;

/**
 * A quick pick item with its label, description and detail cleaned (a copy: the caller's item is
 * kept): no bidi or control characters, and a "$(" that is not one of our leading icons escaped.
 */
export function cleanPickItem<T extends vscode.QuickPickItem>(item: T): T {
  const own = OWN_ICON_PREFIX.exec(item.label)?.[0] ?? '';
  return {
    ...item,
    label: own + iconsAsText(displayText(item.label.slice(own.length))),
    ...(typeof item.description === 'string' ? { description: iconsAsText(displayText(item.description)) } : {}),
    ...(typeof item.detail === 'string' ? { detail: iconsAsText(displayText(item.detail)) } : {}),
  };
}

/**
 * Shows cleaned copies of `items` through `show` and answers with the caller's own item that was
 * picked (callers read their fields and compare by identity).
 */
export async function pickCleaned<T extends vscode.QuickPickItem>(items: readonly T[], show: (shown: readonly T[]) => Promise<T | undefined>): Promise<T | undefined> {
  const shown = items.map(cleanPickItem);
  const picked = await show(shown);
  const at = picked === undefined ? -1 : shown.indexOf(picked);
  return at >= 0 ? items[at] : picked;
}
