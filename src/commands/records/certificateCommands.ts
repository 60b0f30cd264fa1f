// Certificates: details by serial number, add and update (in the certificate form), delete. The
// password is never shown, logged or put in a details view.
import * as vscode from 'vscode';
import { FormCommands } from '../../constants';
import { prompts } from '../../shell/prompts';
import { CertificateNode } from '../../views/records/recordNodes';
import type { CommandContext } from '../commandContext';
import { showRecord } from '../recordDocument';

export async function showCertificateDetails(ctx: CommandContext, node: unknown): Promise<void> {
  if (!(node instanceof CertificateNode) || !node.certificate.SerialNo) throw new vscode.CancellationError();
  const { Password: _password, ...shown } = await (await ctx.client()).certificates.get(node.certificate.SerialNo);
  await showRecord(shown, shown.SerialNo ?? node.certificate.SerialNo);
}

/** Updating happens in the certificate form (as adding does): every field on one page, no chain of input boxes. */
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
