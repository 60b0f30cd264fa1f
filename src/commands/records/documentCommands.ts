// Company documents: add a file (POST /CompanyDocuments), delete one (confirm first).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CreateCompanyDocumentCommand } from '../../api/types';
import { UserFacingError } from '../../shell/errorMessages';
import { prompts } from '../../shell/prompts';
import { DocumentNode } from '../../views/records/recordNodes';
import { required, type CommandContext } from '../commandContext';

/** The server refuses more than this (lead's contract); checked here to spare the upload. */
const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

/**
 * The request shape is not shown in the specification. Assumed (lead's contract):
 * `{ Name: <file name>, FileType: <extension without the dot, e.g. "pdf">, Base64String: <content> }`.
 */
export async function documentCommandFor(file: string): Promise<CreateCompanyDocumentCommand> {
  const size = (await fs.promises.stat(file)).size;
  if (size > MAX_DOCUMENT_BYTES) throw new UserFacingError(vscode.l10n.t('{0} is larger than 10 MB, the most the server accepts.', path.basename(file)));
  const content = await fs.promises.readFile(file);
  return { Name: path.basename(file), FileType: path.extname(file).replace(/^\./, '').toLowerCase(), Base64String: content.toString('base64') };
}

export async function addDocument(ctx: CommandContext, fileArg?: unknown): Promise<void> {
  const file =
    fileArg instanceof vscode.Uri
      ? fileArg.fsPath
      : required(await prompts.openDialog({ title: vscode.l10n.t('Add Company Document'), canSelectMany: false, openLabel: vscode.l10n.t('Add') }))[0]?.fsPath;
  if (!file) throw new vscode.CancellationError();
  const command = await documentCommandFor(file);
  // 409 (same name) and 422 (empty, bad or too large) reach the wrapper, which shows the server's message.
  await (await ctx.client()).documents.create(command);
  ctx.trees.dataChanged('documents');
  void prompts.message('info', vscode.l10n.t('Document "{0}" added.', command.Name));
}

export async function deleteDocument(ctx: CommandContext, node: unknown): Promise<void> {
  if (!(node instanceof DocumentNode)) throw new vscode.CancellationError();
  const action = vscode.l10n.t('Delete');
  const detail = vscode.l10n.t('This cannot be undone: the API cannot restore a deleted document. Add the file again to get it back.');
  if ((await prompts.message('warning', vscode.l10n.t('Delete document "{0}"?', node.document.Name ?? ''), { modal: true, detail }, action)) !== action) return;
  await (await ctx.client()).documents.delete(node.document.ID);
  ctx.trees.dataChanged('documents');
}
