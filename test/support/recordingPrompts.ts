// Prompts for extension-host tests that expect no questions: every input box and quick pick is
// dismissed, every message is recorded (and dismissed), the save dialog answers `saveTarget`.
import type * as vscode from 'vscode';
import type { MessageLevel, Prompts, SearchPickOptions } from '../../src/shell/prompts';

export class RecordingPrompts implements Prompts {
  readonly messages: Array<{ level: MessageLevel; text: string }> = [];
  saveTarget: vscode.Uri | undefined;
  async inputBox(): Promise<string | undefined> {
    return undefined;
  }
  async quickPick<T extends vscode.QuickPickItem>(): Promise<T | undefined> {
    return undefined;
  }
  async message(level: MessageLevel, text: string): Promise<string | undefined> {
    this.messages.push({ level, text });
    return undefined;
  }
  async saveDialog(): Promise<vscode.Uri | undefined> {
    return this.saveTarget;
  }
}

/** Prompts that record every message with its actions and answer it with `answer` (none by default). */
export class AnsweringPrompts implements Prompts {
  readonly messages: Array<{ level: MessageLevel; text: string; actions: string[] }> = [];
  answer: (actions: string[], text: string) => string | undefined = () => undefined;
  async inputBox(): Promise<string | undefined> {
    return undefined;
  }
  async quickPick<T extends vscode.QuickPickItem>(): Promise<T | undefined> {
    return undefined;
  }
  async message(level: MessageLevel, text: string, _options?: unknown, ...actions: string[]): Promise<string | undefined> {
    this.messages.push({ level, text, actions });
    return this.answer(actions, text);
  }
}

/** A message as the extension showed it: level, text, detail, whether modal, and its actions. */
export interface RecordedMessage {
  level: MessageLevel;
  text: string;
  detail?: string;
  modal: boolean;
  actions: string[];
}

/** Answers the extension's prompts from a queue and records every message. */
export class ScriptedPrompts implements Prompts {
  readonly messages: RecordedMessage[] = [];
  readonly inputBoxes: vscode.InputBoxOptions[] = [];
  inputs: Array<string | undefined> = [];
  picks: Array<(items: readonly vscode.QuickPickItem[]) => vscode.QuickPickItem | undefined> = [];
  answers: Array<(actions: string[]) => string | undefined> = [];
  openFiles: vscode.Uri[] = [];
  saveFile: vscode.Uri | undefined;
  searchPickScript: (<T extends vscode.QuickPickItem>(options: SearchPickOptions<T>) => Promise<T | undefined>) | undefined;

  reset(): void {
    this.messages.length = 0;
    this.inputBoxes.length = 0;
    this.inputs = [];
    this.picks = [];
    this.answers = [];
    this.openFiles = [];
    this.saveFile = undefined;
    this.searchPickScript = undefined;
  }
  async inputBox(options: vscode.InputBoxOptions): Promise<string | undefined> {
    this.inputBoxes.push(options);
    const value = this.inputs.shift();
    if (value === undefined) return undefined;
    const problem = await options.validateInput?.(value);
    return problem ? undefined : value;
  }
  async quickPick<T extends vscode.QuickPickItem>(items: readonly T[]): Promise<T | undefined> {
    return this.picks.shift()?.(items) as T | undefined;
  }
  async message(level: MessageLevel, text: string, options?: { modal?: boolean; detail?: string }, ...actions: string[]): Promise<string | undefined> {
    this.messages.push({ level, text, ...(options?.detail ? { detail: options.detail } : {}), modal: options?.modal ?? false, actions });
    return this.answers.shift()?.(actions);
  }
  async openDialog(): Promise<vscode.Uri[] | undefined> {
    return this.openFiles.length ? this.openFiles : undefined;
  }
  async saveDialog(): Promise<vscode.Uri | undefined> {
    return this.saveFile;
  }
  async searchPick<T extends vscode.QuickPickItem>(options: SearchPickOptions<T>): Promise<T | undefined> {
    return this.searchPickScript?.(options);
  }
}
