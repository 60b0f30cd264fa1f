// "Preview Design with Invoice…" asks which document to render the design with: a UBL-TR file of the
// workspace (recognised by its opening text) or one of the built-in samples (media/samples).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readHead } from '../files/fileHead';
import { prompts, UserCancelledError } from '../shell/prompts';
import { documentTypeOfHead, type UblDocumentType } from '../domain/ubl/documentTypes';

const SNIFF_BYTES = 4096;
const MAX_FILES = 2000;

export function samplesFolder(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'media', 'samples');
}

async function head(file: string): Promise<string> {
  return (await readHead(file, SNIFF_BYTES)).toString('utf8');
}

/** What a document is, from its opening text: "Invoice · TEMELFATURA · SATIS". */
function describe(text: string, type: UblDocumentType | undefined): string {
  const profile = /<(?:[\w.-]+:)?ProfileID>([^<]*)</.exec(text)?.[1];
  const code = type?.typeCodeElement ? new RegExp(`<(?:[\\w.-]+:)?${type.typeCodeElement}>([^<]*)<`).exec(text)?.[1] : undefined;
  return [type?.kind, profile, code].filter(Boolean).join(' · ');
}

/** UBL-TR documents of the workspace's folders (XML files whose root is one), nearest first. */
async function workspaceDocuments(): Promise<Array<{ uri: vscode.Uri; description: string }>> {
  const files = await vscode.workspace.findFiles('**/*.xml', '{**/node_modules/**,**/.git/**}', MAX_FILES);
  const found: Array<{ uri: vscode.Uri; description: string }> = [];
  await Promise.all(
    files
      .filter((uri) => uri.scheme === 'file')
      .map(async (uri) => {
        const text = await head(uri.fsPath).catch(() => '');
        const type = documentTypeOfHead(text);
        if (type) found.push({ uri, description: describe(text, type) });
      }),
  );
  return found.sort((a, b) => a.uri.fsPath.split(path.sep).length - b.uri.fsPath.split(path.sep).length || a.uri.fsPath.localeCompare(b.uri.fsPath));
}

/** Asks for the document; undefined never (a cancel throws UserCancelledError). */
export async function pickInvoice(extensionUri: vscode.Uri, title: string): Promise<vscode.Uri> {
  type Item = vscode.QuickPickItem & { uri?: vscode.Uri };
  const items: Item[] = [];
  const inWorkspace = await workspaceDocuments();
  if (inWorkspace.length > 0) items.push({ label: vscode.l10n.t('In this workspace'), kind: vscode.QuickPickItemKind.Separator });
  for (const d of inWorkspace) items.push({ label: path.basename(d.uri.fsPath), description: d.description, detail: vscode.workspace.asRelativePath(d.uri), uri: d.uri });
  items.push({ label: vscode.l10n.t('Built-in samples'), kind: vscode.QuickPickItemKind.Separator });
  const folder = samplesFolder(extensionUri).fsPath;
  for (const name of fs.readdirSync(folder).filter((f) => f.endsWith('.xml')).sort()) {
    const file = path.join(folder, name);
    const text = await head(file);
    items.push({ label: name, description: describe(text, documentTypeOfHead(text)), uri: vscode.Uri.file(file) });
  }
  const picked = await prompts.quickPick(items, { title, placeHolder: vscode.l10n.t('A UBL-TR document to render the design with'), matchOnDescription: true, matchOnDetail: true, ignoreFocusOut: true });
  if (!picked?.uri) throw new UserCancelledError();
  return picked.uri;
}
