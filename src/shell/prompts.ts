// Every question and message the shell shows goes through this one seam, so tests running in the
// real extension host can answer prompts and record messages (an extension's `vscode` API object is
// its own, so a test cannot patch `vscode.window` for the extension).
import * as vscode from 'vscode';
import { withoutHiddenCharacters } from '../domain/displayText';
import { cleanPickItem, pickCleaned } from './displayItems';
import { redact } from './redact';

export type MessageLevel = 'info' | 'warning' | 'error';

export interface Prompts {
  inputBox(options: vscode.InputBoxOptions): Promise<string | undefined>;
  quickPick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<T | undefined>;
  /** Resolves to the chosen action's title, or undefined when dismissed. */
  message(level: MessageLevel, text: string, options?: { modal?: boolean; detail?: string }, ...actions: string[]): Promise<string | undefined>;
  // Optional, so implementations written before them still fit (see `prompts` below).
  openDialog?(options: vscode.OpenDialogOptions): Promise<vscode.Uri[] | undefined>;
  saveDialog?(options: vscode.SaveDialogOptions): Promise<vscode.Uri | undefined>;
  /** A quick pick whose items follow the typed text (debounced; the superseded search is aborted). */
  searchPick?<T extends vscode.QuickPickItem>(options: SearchPickOptions<T>): Promise<T | undefined>;
}

export interface SearchPickOptions<T extends vscode.QuickPickItem> {
  title?: string;
  placeholder?: string;
  /** Milliseconds of quiet typing before a search starts (default 250). */
  debounceMs?: number;
  /** Items for the text; the signal aborts when the user typed on or closed the pick. */
  search(text: string, signal: AbortSignal): Promise<T[]>;
}

function windowSearchPick<T extends vscode.QuickPickItem>(options: SearchPickOptions<T>): Promise<T | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<T>();
    pick.title = options.title;
    pick.placeholder = options.placeholder;
    pick.matchOnDescription = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let running: AbortController | undefined;
    let result: T | undefined;
    pick.onDidChangeValue((text) => {
      if (timer) clearTimeout(timer);
      running?.abort();
      timer = setTimeout(() => {
        const controller = new AbortController();
        running = controller;
        pick.busy = true;
        options.search(text, controller.signal).then(
          (items) => {
            if (controller.signal.aborted) return;
            pick.items = items;
            pick.busy = false;
          },
          () => {
            if (!controller.signal.aborted) pick.busy = false;
          },
        );
      }, options.debounceMs ?? 250);
    });
    pick.onDidAccept(() => {
      result = pick.selectedItems[0];
      pick.hide();
    });
    pick.onDidHide(() => {
      if (timer) clearTimeout(timer);
      running?.abort();
      pick.dispose();
      resolve(result);
    });
    pick.show();
  });
}

export const windowPrompts: Prompts = {
  inputBox: async (options) => vscode.window.showInputBox(options),
  quickPick: async (items, options) => vscode.window.showQuickPick(items, options),
  async message(level, text, options, ...actions) {
    const show =
      level === 'error' ? vscode.window.showErrorMessage : level === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    const messageOptions: vscode.MessageOptions = { modal: options?.modal ?? false, ...(options?.detail ? { detail: options.detail } : {}) };
    return show(text, messageOptions, ...actions);
  },
  openDialog: async (options) => vscode.window.showOpenDialog(options),
  saveDialog: async (options) => vscode.window.showSaveDialog(options),
  searchPick: windowSearchPick,
};

let current: Prompts = windowPrompts;

/** A search pick whose items are shown cleaned; it answers with the search's own item. */
async function searchCleaned<T extends vscode.QuickPickItem>(
  show: (options: SearchPickOptions<T>) => Promise<T | undefined>,
  options: SearchPickOptions<T>,
): Promise<T | undefined> {
  const originals = new WeakMap<T, T>();
  const search = async (text: string, signal: AbortSignal): Promise<T[]> =>
    (await options.search(text, signal)).map((item) => {
      const shown = cleanPickItem(item);
      originals.set(shown, item);
      return shown;
    });
  const picked = await show({ ...options, search });
  return picked === undefined ? undefined : (originals.get(picked) ?? picked);
}

/** Messages are scrubbed of known secrets here, whichever implementation shows them. */
export const prompts: Required<Prompts> = {
  inputBox: (options) => current.inputBox(options),
  // Items and messages often hold server text: shown without bidi or control characters (displayItems.ts).
  quickPick: (items, options) => pickCleaned(items, (shown) => current.quickPick(shown, options)),
  message: (level, text, options, ...actions) =>
    current.message(level, withoutHiddenCharacters(redact(text)), options?.detail ? { ...options, detail: withoutHiddenCharacters(redact(options.detail)) } : options, ...actions),
  // A replacement that does not know these prompts answers them as dismissed (as for an unscripted
  // prompt), rather than leaving a real dialog open that no test can answer.
  openDialog: (options) => (current.openDialog ? current.openDialog(options) : Promise.resolve(undefined)),
  saveDialog: (options) => (current.saveDialog ? current.saveDialog(options) : Promise.resolve(undefined)),
  searchPick: (options) => (current.searchPick ? searchCleaned(current.searchPick.bind(current), options) : Promise.resolve(undefined)),
};

/** Test hook: replaces the prompt implementation; returns a function restoring the previous one. */
export function replacePrompts(next: Prompts): () => void {
  const previous = current;
  current = next;
  return () => {
    current = previous;
  };
}

/** Thrown when the user dismisses a prompt: the command wrapper ends the command silently. */
export class UserCancelledError extends Error {
  constructor() {
    super('Cancelled by the user');
    this.name = 'UserCancelledError';
  }
}
