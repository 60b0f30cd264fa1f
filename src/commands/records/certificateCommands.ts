// Certificates: details by serial number, add, update, delete. The password is asked in a password
// box and never shown, logged or put in a details view.
import * as vscode from 'vscode';
import { FormCommands } from '../../constants';
import { CERTIFICATE_TYPES, type CertificateResponse, type CertificateType, type CreateCompanyCertificateCommand } from '../../api/types';
import { prompts } from '../../shell/prompts';
import { rememberSecret } from '../../shell/redact';
import { CertificateNode } from '../../views/records/recordNodes';
import { commandExists, required, showRecord, type CommandContext } from '../commandContext';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function dateProblem(value: string): string | undefined {
  if (value.trim() === '') return undefined;
  return DATE.test(value.trim()) && !Number.isNaN(Date.parse(value.trim())) ? undefined : vscode.l10n.t('Use the form YYYY-MM-DD.');
}

/** The record without its password, for showing. */
export function withoutPassword(certificate: CertificateResponse): Omit<CertificateResponse, 'Password'> {
  const { Password: _password, ...rest } = certificate;
  return rest;
}

/** Asks serial number, type, validity dates, password and description, prefilled from `current`. */
async function askCertificate(current: CertificateResponse | undefined, title: string): Promise<CreateCompanyCertificateCommand> {
  const step = (n: number) => `${title} (${n}/6)`;
  const serial = required(
    await prompts.inputBox({ title: step(1), prompt: vscode.l10n.t('Serial number'), value: current?.SerialNo ?? '', ignoreFocusOut: true, validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('The serial number is required.')) }),
  ).trim();
  const types = CERTIFICATE_TYPES.map((t) => ({ label: t, type: t as CertificateType, description: t === current?.Type ? vscode.l10n.t('current') : undefined }));
  const type = required(await prompts.quickPick(types, { title: step(2), placeHolder: vscode.l10n.t('Certificate type') })).type;
  const start = required(await prompts.inputBox({ title: step(3), prompt: vscode.l10n.t('Valid from (YYYY-MM-DD)'), value: current?.StartDate?.slice(0, 10) ?? '', ignoreFocusOut: true, validateInput: dateProblem })).trim();
  const end = required(await prompts.inputBox({ title: step(4), prompt: vscode.l10n.t('Valid until (YYYY-MM-DD)'), value: current?.EndDate?.slice(0, 10) ?? '', ignoreFocusOut: true, validateInput: dateProblem })).trim();
  const password = required(
    await prompts.inputBox({
      title: step(5),
      prompt: current ? vscode.l10n.t('Certificate password (leave empty to keep the current one)') : vscode.l10n.t('Certificate password'),
      password: true,
      ignoreFocusOut: true,
    }),
  );
  rememberSecret(password);
  const description = required(await prompts.inputBox({ title: step(6), prompt: vscode.l10n.t('Description'), value: current?.Description ?? '', ignoreFocusOut: true })).trim();
  return {
    SerialNo: serial,
    Type: type,
    StartDate: start ? `${start}T00:00:00` : null,
    EndDate: end ? `${end}T00:00:00` : null,
    // Empty on update: the password the server holds stays (it may send it back; it is not shown).
    Password: password !== '' ? password : (current?.Password ?? null),
    Description: description || null,
  };
}

export async function showCertificateDetails(ctx: CommandContext, node: unknown): Promise<void> {
  if (!(node instanceof CertificateNode) || !node.certificate.SerialNo) throw new vscode.CancellationError();
  const certificate = await (await ctx.client()).certificates.get(node.certificate.SerialNo);
  await showRecord(withoutPassword(certificate));
}

export async function addCertificate(ctx: CommandContext): Promise<void> {
  if (await commandExists(FormCommands.certificate)) {
    await vscode.commands.executeCommand(FormCommands.certificate, {});
    return;
  }
  const command = await askCertificate(undefined, vscode.l10n.t('Add Certificate'));
  await (await ctx.client()).certificates.create(command);
  ctx.trees.dataChanged('certificates');
  void prompts.message('info', vscode.l10n.t('Certificate {0} added.', command.SerialNo ?? ''));
}

export async function updateCertificate(ctx: CommandContext, node: unknown): Promise<void> {
  if (!(node instanceof CertificateNode)) throw new vscode.CancellationError();
  if (await commandExists(FormCommands.certificate)) {
    await vscode.commands.executeCommand(FormCommands.certificate, { certificate: node.certificate });
    return;
  }
  const command = await askCertificate(node.certificate, vscode.l10n.t('Update Certificate'));
  await (await ctx.client()).certificates.update({ ...command, ID: node.certificate.ID });
  ctx.trees.dataChanged('certificates');
  void prompts.message('info', vscode.l10n.t('Certificate {0} updated.', command.SerialNo ?? ''));
}

export async function deleteCertificate(ctx: CommandContext, node: unknown): Promise<void> {
  if (!(node instanceof CertificateNode)) throw new vscode.CancellationError();
  const action = vscode.l10n.t('Delete');
  const detail = vscode.l10n.t('This cannot be undone: the API cannot restore a deleted certificate; you would add it again with its password.');
  if ((await prompts.message('warning', vscode.l10n.t('Delete certificate {0}?', node.certificate.SerialNo ?? ''), { modal: true, detail }, action)) !== action) return;
  await (await ctx.client()).certificates.delete(node.certificate.ID);
  ctx.trees.dataChanged('certificates');
}
