// A save tells the views which part of the data changed: a plain event in the shell, so no command
// (which any extension could run) carries it and the views feature is not loaded just to hear it.
import * as vscode from 'vscode';

const DATA_AREAS = ['customers', 'certificates', 'company', 'mailing', 'taxOffice', 'documents', 'identifications'] as const;
export type DataArea = (typeof DATA_AREAS)[number];

export function isDataArea(value: unknown): value is DataArea {
  return typeof value === 'string' && (DATA_AREAS as readonly string[]).includes(value);
}

/** The area that changed; undefined: anything may have (the views reload everything). */
const changed = new vscode.EventEmitter<DataArea | undefined>();

/** Fires after a change was saved; the views reload the part that shows it. */
export const onDidChangeData = changed.event;

export function notifyDataChanged(area?: DataArea): void {
  changed.fire(area);
}
