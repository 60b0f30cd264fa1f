// The one Prompts of the extension-host suites (replacePrompts): it records every question and message
// and answers them as a test scripts it, or dismisses them.
import type * as vscode from 'vscode';
import type { MessageLevel, Prompts, SearchPickOptions } from '../../src/shell/prompts';

/** A message as the extension showed it: level, text, detail, whether modal, and its actions. */
export interface RecordedMessage {
  level: MessageLevel;
  text: string;
  detail?: string;
  modal: boolean;
  actions: string[];
}

/** Chooses among a quick pick's items; undefined dismisses the pick. */
export type PickChooser<Item extends vscode.QuickPickItem = vscode.QuickPickItem> = (items: readonly Item[]) => Item | undefined;
/** Chooses a message's action by its title; undefined dismisses the message. */
export type MessageAnswer = (actions: string[], text: string) => string | undefined;

/**
 * The extension's prompts in the extension-host suites. Every question and message is recorded, then
 * answered from its queue (`inputs`, `picks`, `answers`, `opens`), once that is empty by the standing
 * answer (`input`, `pick`, `answer`, `saveFile`); with nothing scripted it is dismissed. A typed answer
 * goes through the box's `validateInput` as in VS Code: one the box refuses lands in `refused` and
 * counts as a cancel. `Item` is the quick-pick item the suite's choosers look into.
 */
export class ScriptedPrompts<Item extends vscode.QuickPickItem = vscode.QuickPickItem> implements Prompts {
  readonly messages: RecordedMessage[] = [];
  readonly inputBoxes: vscode.InputBoxOptions[] = [];
  /** What `validateInput` said about each refused answer. */
  readonly refused: string[] = [];
  /** The items of each quick pick, in turn. */
  readonly offered: Array<readonly Item[]> = [];
  readonly openDialogs: vscode.OpenDialogOptions[] = [];
  readonly saveDialogs: vscode.SaveDialogOptions[] = [];

  inputs: Array<string | undefined> = [];
  picks: Array<PickChooser<Item>> = [];
  answers: MessageAnswer[] = [];
  /** What each open dialog returns, in turn (then nothing). */
  opens: Array<vscode.Uri[] | undefined> = [];
  input: string | undefined;
  pick: PickChooser<Item> | undefined;
  answer: MessageAnswer | undefined;
  saveFile: vscode.Uri | undefined;
  searchPickScript: (<T extends vscode.QuickPickItem>(options: SearchPickOptions<T>) => Promise<T | undefined>) | undefined;

  /** Forgets what was recorded and what was scripted. */
  reset(): void {
    this.take();
    this.inputs = [];
    this.picks = [];
    this.answers = [];
    this.opens = [];
    this.input = undefined;
    this.pick = undefined;
    this.answer = undefined;
    this.saveFile = undefined;
    this.searchPickScript = undefined;
  }

  /** The messages shown since the last take or reset; forgets every record (the script stays). */
  take(): RecordedMessage[] {
    this.inputBoxes.length = 0;
    this.refused.length = 0;
    this.offered.length = 0;
    this.openDialogs.length = 0;
    this.saveDialogs.length = 0;
    return this.messages.splice(0);
  }

  /** The labels of each quick pick offered, in turn. */
  offeredLabels(): string[][] {
    return this.offered.map((items) => items.map((i) => i.label));
  }

  async inputBox(options: vscode.InputBoxOptions): Promise<string | undefined> {
    this.inputBoxes.push(options);
    const value = this.inputs.length > 0 ? this.inputs.shift() : this.input;
    if (value === undefined) return undefined;
    const problem = await options.validateInput?.(value);
    const text = typeof problem === 'string' ? problem : problem?.message;
    if (text) {
      this.refused.push(text);
      return undefined;
    }
    return value;
  }

  async quickPick<T extends vscode.QuickPickItem>(items: readonly T[]): Promise<T | undefined> {
    const offered = items as unknown as readonly Item[];
    this.offered.push(offered);
    const choose = this.picks.shift() ?? this.pick;
    return choose?.(offered) as T | undefined;
  }

  async message(level: MessageLevel, text: string, options?: { modal?: boolean; detail?: string }, ...actions: string[]): Promise<string | undefined> {
    this.messages.push({ level, text, ...(options?.detail ? { detail: options.detail } : {}), modal: options?.modal ?? false, actions });
    const choose = this.answers.shift() ?? this.answer;
    return choose?.(actions, text);
  }

  async openDialog(options: vscode.OpenDialogOptions): Promise<vscode.Uri[] | undefined> {
    this.openDialogs.push(options);
    return this.opens.shift();
  }

  async saveDialog(options: vscode.SaveDialogOptions): Promise<vscode.Uri | undefined> {
    this.saveDialogs.push(options);
    return this.saveFile;
  }

  async searchPick<T extends vscode.QuickPickItem>(options: SearchPickOptions<T>): Promise<T | undefined> {
    return this.searchPickScript?.(options);
  }
}
