// Prompts for extension-host tests that expect no questions: every input box and quick pick is
// dismissed, every message is recorded (and dismissed), the save dialog answers `saveTarget`.
import type * as vscode from 'vscode';
import type { MessageLevel, Prompts } from '../../src/shell/prompts';

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
