// Commands of the documents, certificates, identifications and account views. A certificate's password
// is never shown, logged or put in a details view.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Commands, FormCommands, TreeCommands } from '../constants';
import { COMPANY_IDENTIFICATION_TYPES, type CompanyIdentificationType, type CreateCompanyDocumentCommand } from '../api/types';
import { registerCommand } from '../shell/commandRunner';
import { UserFacingError } from '../shell/errorMessages';
import { formatBytes } from '../shell/displayFormat';
import { prompts } from '../shell/prompts';
import { channelOf, switchMailingChannel } from '../shell/mailingSwitch';
import { MailingNode } from '../views/records/accountNodes';
import { CertificateNode, DocumentNode, IdentificationNode } from '../views/records/recordNodes';
import { confirmDelete, fileArgOrPick, required, type TreeCommandContext } from './treeCommandContext';
import { showRecord } from './recordDocument';

/** The server is assumed to refuse more than this (as the sandbox does); checked here to spare the upload. */
const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

export function registerRecordCommands(ctx: TreeCommandContext): vscode.Disposable[] {
  return [
    registerCommand(TreeCommands.documentsRefresh, () => ctx.trees.documents.refresh()),
    registerCommand(TreeCommands.documentsAdd, (file) => addDocument(ctx, file)),
    registerCommand(TreeCommands.documentsDelete, (node) => deleteDocument(ctx, node)),
    registerCommand(TreeCommands.certificatesRefresh, () => ctx.trees.certificates.refresh()),
    registerCommand(TreeCommands.certificatesDetails, (node) => showCertificateDetails(ctx, node)),
    registerCommand(TreeCommands.certificatesAdd, () => vscode.commands.executeCommand(FormCommands.certificate, {})),
    // Updating happens in the certificate form (as adding does): every field on one page, no chain of input boxes.
    registerCommand(TreeCommands.certificatesUpdate, (node) => {
      if (!(node instanceof CertificateNode)) throw new vscode.CancellationError();
      return vscode.commands.executeCommand(FormCommands.certificate, { certificate: node.certificate });
    }),
    registerCommand(TreeCommands.certificatesDelete, (node) => deleteCertificate(ctx, node)),
    registerCommand(TreeCommands.identificationsRefresh, () => ctx.trees.identifications.refresh()),
    registerCommand(TreeCommands.identificationsAdd, () => addIdentification(ctx)),
    registerCommand(TreeCommands.identificationsDelete, (node) => deleteIdentification(ctx, node)),
    // One refresh button for the account view: it reloads the tree and the status bar's credits.
    registerCommand(TreeCommands.accountRefresh, async () => {
      ctx.trees.account.refresh();
      await vscode.commands.executeCommand(Commands.creditsRefresh);
    }),
    registerCommand(TreeCommands.accountOpenCompany, () => vscode.commands.executeCommand(FormCommands.company)),
    registerCommand(TreeCommands.accountToggleMailing, (node, wanted) => toggleMailing(ctx, node, wanted)),
    registerCommand(TreeCommands.accountOpenCampaign, (url) => openCampaign(url)),
  ];
}

/**
 * The request shape is not shown in the specification. Assumed (as the sandbox checks, src/sandbox/routes/companyLists.ts):
 * `{ Name: <file name>, FileType: <extension without the dot, e.g. "pdf">, Base64String: <content> }`.
 */
async function documentCommandFor(file: string): Promise<CreateCompanyDocumentCommand> {
  const size = (await fs.promises.stat(file)).size;
  if (size > MAX_DOCUMENT_BYTES) throw new UserFacingError(vscode.l10n.t('{0} is larger than {1}, the most the server accepts.', path.basename(file), formatBytes(MAX_DOCUMENT_BYTES)));
  const content = await fs.promises.readFile(file);
  return { Name: path.basename(file), FileType: path.extname(file).replace(/^\./, '').toLowerCase(), Base64String: content.toString('base64') };
}

async function addDocument(ctx: TreeCommandContext, fileArg?: unknown): Promise<void> {
  const file = await fileArgOrPick(fileArg, { title: vscode.l10n.t('Add Company Document'), openLabel: vscode.l10n.t('Add') });
  const command = await documentCommandFor(file);
  // 409 (same name) and 422 (empty, bad or too large) reach the wrapper, which shows the server's message.
  await (await ctx.client()).documents.create(command);
  ctx.trees.dataChanged('documents');
  void prompts.message('info', vscode.l10n.t('Document "{0}" added.', command.Name));
}

async function deleteDocument(ctx: TreeCommandContext, node: unknown): Promise<void> {
  if (!(node instanceof DocumentNode)) throw new vscode.CancellationError();
  const question = vscode.l10n.t('Delete document "{0}"?', node.document.Name ?? '');
  const detail = vscode.l10n.t('This cannot be undone: the API cannot restore a deleted document. Add the file again to get it back.');
  await confirmDelete(ctx, 'documents', question, detail, async () => (await ctx.client()).documents.delete(node.document.ID));
}

async function showCertificateDetails(ctx: TreeCommandContext, node: unknown): Promise<void> {
  if (!(node instanceof CertificateNode) || !node.certificate.SerialNo) throw new vscode.CancellationError();
  const { Password: _password, ...shown } = await (await ctx.client()).certificates.get(node.certificate.SerialNo);
  await showRecord(shown, shown.SerialNo ?? node.certificate.SerialNo);
}

async function deleteCertificate(ctx: TreeCommandContext, node: unknown): Promise<void> {
  if (!(node instanceof CertificateNode)) throw new vscode.CancellationError();
  const question = vscode.l10n.t('Delete certificate {0}?', node.certificate.SerialNo ?? '');
  const detail = vscode.l10n.t('This cannot be undone: the API cannot restore a deleted certificate; you would add it again with its password.');
  await confirmDelete(ctx, 'certificates', question, detail, async () => (await ctx.client()).certificates.delete(node.certificate.ID));
}

/** One of the 21 CompanyIdentificationType values and a value. */
async function addIdentification(ctx: TreeCommandContext): Promise<void> {
  const items = COMPANY_IDENTIFICATION_TYPES.map((t) => ({ label: t, type: t as CompanyIdentificationType }));
  const picked = required(await prompts.quickPick(items, { title: vscode.l10n.t('Add Identification (1/2)'), placeHolder: vscode.l10n.t('Identification type') }));
  const value = required(
    await prompts.inputBox({
      title: vscode.l10n.t('Add Identification (2/2)'),
      prompt: vscode.l10n.t('Value of {0}', picked.type),
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('The value is required.')),
    }),
  ).trim();
  await (await ctx.client()).identifications.create(picked.type, value);
  ctx.trees.dataChanged('identifications');
}

async function deleteIdentification(ctx: TreeCommandContext, node: unknown): Promise<void> {
  if (!(node instanceof IdentificationNode)) throw new vscode.CancellationError();
  const i = node.identification;
  const question = vscode.l10n.t('Delete identification {0}: {1}?', i.Name ?? '', i.Value ?? '');
  const detail = vscode.l10n.t('This cannot be undone through the API; you can add the same identification again.');
  await confirmDelete(ctx, 'identifications', question, detail, async () => (await ctx.client()).identifications.delete(i.ID));
}

/**
 * Turns e-mail (Portal) or WhatsApp sending on or off (`wanted`: the checkbox's new state; absent:
 * the other state). Turning one off on the live (Production) account asks first, in a modal dialog:
 * invoices would stop reaching customers that way.
 */
async function toggleMailing(ctx: TreeCommandContext, node: unknown, wanted?: unknown): Promise<void> {
  if (!(node instanceof MailingNode) || !node.toggleable) throw new vscode.CancellationError();
  const next = typeof wanted === 'boolean' ? wanted : !node.setting.IsActive;
  if (next === node.setting.IsActive) return;
  const channel = channelOf(node.setting);
  if (!channel) throw new vscode.CancellationError();
  const sent = await ctx.client().then((client) => switchMailingChannel(client, ctx.environment(), channel, next)).catch((error: unknown) => {
    // After a failure the checkbox shows what the server has.
    ctx.trees.dataChanged('mailing');
    throw error;
  });
  // Declined: the checkbox goes back to the state the server has (the node still holds it); no request.
  if (!sent) ctx.trees.account.redraw(node);
  else ctx.trees.dataChanged('mailing');
}

async function openCampaign(url: unknown): Promise<void> {
  if (typeof url !== 'string') throw new vscode.CancellationError();
  const uri = vscode.Uri.parse(url, true);
  // Only web links: a campaign text comes from the server and must not open local files or commands.
  if (uri.scheme !== 'https' && uri.scheme !== 'http') {
    void prompts.message('warning', vscode.l10n.t('The campaign link is not a web address: {0}', url));
    return;
  }
  await vscode.env.openExternal(uri);
}
