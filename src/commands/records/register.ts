// Commands of the documents, certificates, identifications and account views.
import * as vscode from 'vscode';
import { Commands, FormCommands, TreeCommands } from '../../constants';
import { registerCommand } from '../../shell/commandRunner';
import type { CommandContext } from '../commandContext';
import { openCampaign, toggleMailing } from './accountCommands';
import { deleteCertificate, showCertificateDetails, updateCertificate } from './certificateCommands';
import { addDocument, deleteDocument } from './documentCommands';
import { addIdentification, deleteIdentification } from './identificationCommands';

export function registerRecordCommands(ctx: CommandContext): vscode.Disposable[] {
  return [
    registerCommand(TreeCommands.documentsRefresh, () => ctx.trees.documents.refresh()),
    registerCommand(TreeCommands.documentsAdd, (file) => addDocument(ctx, file)),
    registerCommand(TreeCommands.documentsDelete, (node) => deleteDocument(ctx, node)),
    registerCommand(TreeCommands.certificatesRefresh, () => ctx.trees.certificates.refresh()),
    registerCommand(TreeCommands.certificatesDetails, (node) => showCertificateDetails(ctx, node)),
    registerCommand(TreeCommands.certificatesAdd, () => vscode.commands.executeCommand(FormCommands.certificate, {})),
    registerCommand(TreeCommands.certificatesUpdate, (node) => updateCertificate(node)),
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
