// Certificates: details by serial number, add and update (in the certificate form), delete. The
// password is never shown, logged or put in a details view.
import * as vscode from 'vscode';
import { FormCommands } from '../../constants';
import type { CertificateResponse } from '../../api/types';
import { prompts } from '../../shell/prompts';
import { CertificateNode } from '../../views/records/recordNodes';
import { showRecord, type CommandContext } from '../commandContext';

/** The record without its password, for showing. */
export function withoutPassword(certificate: CertificateResponse): Omit<CertificateResponse, 'Password'> {
  const { Password: _password, ...rest } = certificate;
  return rest;
}

export async function showCertificateDetails(ctx: CommandContext, node: unknown): Promise<void> {
  if (!(node instanceof CertificateNode) || !node.certificate.SerialNo) throw new vscode.CancellationError();
  const certificate = await (await ctx.client()).certificates.get(node.certificate.SerialNo);
  await showRecord(withoutPassword(certificate), certificate.SerialNo ?? node.certificate.SerialNo);
}

/** Adding and updating happen in the certificate form: every field on one page, no chain of input boxes. */
export async function addCertificate(): Promise<void> {
  await vscode.commands.executeCommand(FormCommands.certificate, {});
}

export async function updateCertificate(node: unknown): Promise<void> {
  if (!(node instanceof CertificateNode)) throw new vscode.CancellationError();
  await vscode.commands.executeCommand(FormCommands.certificate, { certificate: node.certificate });
}

export async function deleteCertificate(ctx: CommandContext, node: unknown): Promise<void> {
  if (!(node instanceof CertificateNode)) throw new vscode.CancellationError();
  const action = vscode.l10n.t('Delete');
  const detail = vscode.l10n.t('This cannot be undone: the API cannot restore a deleted certificate; you would add it again with its password.');
  if ((await prompts.message('warning', vscode.l10n.t('Delete certificate {0}?', node.certificate.SerialNo ?? ''), { modal: true, detail }, action)) !== action) return;
  await (await ctx.client()).certificates.delete(node.certificate.ID);
  ctx.trees.dataChanged('certificates');
}
