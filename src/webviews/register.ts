// The forms feature (loaded on first use, src/features/index.ts): the form commands (nilvera.forms.*), the
// restoring of panels after a window reload (activate() registers one serializer per form type and hands
// the panel over to deserializeForm), and one panel per record: opening a record twice focuses its panel.
import * as vscode from 'vscode';
import { FormCommands, FormViewTypes, TreeCommands } from '../constants';
import type { CertificateResponse, CustomerDto } from '../api/types';
import { registerCommand, registerRawCommand } from '../shell/commandRunner';
import { log } from '../shell/log';
import { prompts } from '../shell/prompts';
import { UserFacingError } from '../shell/errorMessages';
import type { Profile } from '../profiles/profile';
import type { ShellServices } from '../shell/services';
import { certificateForm } from './forms/certificate';
import { companyForm } from './forms/company';
import { customerForm, customerIdOf } from './forms/customer';
import type { DataArea, FormModel } from './forms/formModel';
import { settingsForm } from './forms/settings';
import { FormPanel, type FormPanelHost } from './formPanel';
import { parsePersistedState, type FormKind, type FormValues } from './protocol';

const DATA_CHANGED = TreeCommands.dataChanged;

const ViewTypes: Record<FormKind, string> = FormViewTypes;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function customerArgs(arg: unknown): { customerId?: number; prefill?: Partial<CustomerDto> } {
  if (!isRecord(arg)) return {};
  const customerId = typeof arg.customerId === 'number' && Number.isInteger(arg.customerId) ? arg.customerId : undefined;
  const prefill = isRecord(arg.prefill) ? (arg.prefill as Partial<CustomerDto>) : undefined;
  return { ...(customerId !== undefined ? { customerId } : {}), ...(prefill ? { prefill } : {}) };
}

function certificateArg(arg: unknown): CertificateResponse | undefined {
  if (!isRecord(arg) || !isRecord(arg.certificate)) return undefined;
  const c = arg.certificate;
  return typeof c.ID === 'number' ? (c as unknown as CertificateResponse) : undefined;
}

/** A model for a persisted record key (serializer and "Restore"). */
function modelFor(kind: FormKind, recordKey: string): FormModel {
  switch (kind) {
    case 'company':
      return companyForm();
    case 'settings':
      return settingsForm();
    case 'customer':
      return customerForm(customerIdOf(recordKey));
    case 'certificate': {
      const id = /^certificate:(\d+)$/.exec(recordKey);
      // The form re-reads the certificate by ID on load.
      return certificateForm(id ? ({ ID: Number(id[1]) } as CertificateResponse) : undefined);
    }
  }
}

/** Set by activateFeature: reattaches a panel VS Code restored after a reload. */
let restorePanel: ((kind: FormKind, webviewPanel: vscode.WebviewPanel, state: unknown) => void) | undefined;

/** The serializers' second half (the first, registered at activation, loads this feature). */
export function deserializeForm(kind: FormKind, webviewPanel: vscode.WebviewPanel, state: unknown): void {
  if (!restorePanel) throw new Error('The forms feature is not active.');
  restorePanel(kind, webviewPanel, state);
}

export function activateFeature(context: vscode.ExtensionContext, shell: ShellServices): void {
  context.subscriptions.push(...registerForms(context, shell));
}

function registerForms(context: vscode.ExtensionContext, shell: ShellServices): vscode.Disposable[] {
  const panels = new Map<string, FormPanel>();
  let shuttingDown = false;

  /** A form belongs to the profile it was opened in: one panel per profile and record. */
  const keyOf = (profileId: string, recordKey: string) => `${profileId}\u0000${recordKey}`;

  const shared = {
    extensionUri: context.extensionUri,
    async dataChanged(areas: DataArea[]) {
      const known = await vscode.commands.getCommands(true);
      if (!known.includes(DATA_CHANGED)) return;
      for (const area of areas) {
        await Promise.resolve(vscode.commands.executeCommand(DATA_CHANGED, { area })).catch((e: unknown) => log.warn(`dataChanged(${area}) failed: ${String(e)}`));
      }
    },
  };

  /** The host of a panel opened under `owner`: its loads and saves go to that profile's account only. */
  function hostFor(owner: Profile): FormPanelHost {
    const several = shell.profiles.store.all().length > 1;
    return {
      ...shared,
      ...(several ? { titleSuffix: owner.name } : {}),
      async client() {
        const active = shell.activeProfile();
        if (active.id !== owner.id) {
          throw new UserFacingError(vscode.l10n.t('This form belongs to the profile "{0}", and "{1}" is active now. Nothing was loaded or saved: switch back to "{0}" to use it.', owner.name, active.name));
        }
        return shell.client();
      },
      closed(panel: FormPanel, draft: FormValues | undefined) {
        const key = keyOf(owner.id, panel.recordKey);
        if (panels.get(key) === panel) panels.delete(key);
        log.info(`Form ${panel.recordKey} closed${draft ? ' with unsaved changes' : ''}.`);
        // A webview cannot stop its tab from closing, so unsaved edits are offered back instead.
        if (draft && !shuttingDown) offerRestore(panel.model.kind, panel.recordKey, panel.title, draft).catch((e: unknown) => log.error(`Restoring a draft failed: ${String(e)}`));
      },
      rekeyed(panel: FormPanel, previousKey: string) {
        if (panels.get(keyOf(owner.id, previousKey)) === panel) panels.delete(keyOf(owner.id, previousKey));
        panels.set(keyOf(owner.id, panel.recordKey), panel);
      },
    };
  }

  function open(model: FormModel, draft?: FormValues, existing?: vscode.WebviewPanel): FormPanel {
    const owner = shell.activeProfile();
    const key = keyOf(owner.id, model.recordKey);
    const current = panels.get(key);
    if (current && !existing) {
      current.reveal();
      return current;
    }
    const webviewPanel =
      existing ?? vscode.window.createWebviewPanel(ViewTypes[model.kind], model.initialTitle(), vscode.ViewColumn.Active, { enableFindWidget: true });
    const panel = new FormPanel(webviewPanel, model, hostFor(owner), draft);
    panels.set(key, panel);
    return panel;
  }

  async function offerRestore(kind: FormKind, recordKey: string, title: string, draft: FormValues): Promise<void> {
    const restore = vscode.l10n.t('Restore');
    const choice = await prompts.message('warning', vscode.l10n.t('"{0}" was closed with unsaved changes.', title), undefined, restore);
    if (choice === restore) open(modelFor(kind, recordKey), draft).reveal();
  }

  restorePanel = (kind, webviewPanel, state) => {
    const persisted = parsePersistedState(state);
    const recordKey = persisted && persisted.kind === kind ? persisted.recordKey : modelFor(kind, `${kind}:new`).recordKey;
    // A restored panel belongs to the profile active when the window came back.
    if (panels.has(keyOf(shell.activeProfile().id, recordKey))) {
      webviewPanel.dispose();
      return;
    }
    // The page restores its own draft from getState(); the host only reattaches the record.
    open(modelFor(kind, recordKey), undefined, webviewPanel);
  };

  return [
    { dispose: () => (restorePanel = undefined) },
    registerCommand(FormCommands.company, () => void open(companyForm())),
    registerCommand(FormCommands.settings, () => void open(settingsForm())),
    registerCommand(FormCommands.customer, (arg) => {
      const { customerId, prefill } = customerArgs(arg);
      open(customerForm(customerId, prefill));
    }),
    registerCommand(FormCommands.certificate, (arg) => void open(certificateForm(certificateArg(arg)))),
    registerRawCommand(FormCommands.inspect, () =>
      [...panels].map(([key, p]) => ({
        profileId: key.slice(0, key.indexOf('\u0000')),
        viewType: p.panel.viewType,
        recordKey: p.recordKey,
        title: p.panel.title,
        html: p.panel.webview.html,
        cspSource: p.panel.webview.cspSource,
        localResourceRoots: (p.panel.webview.options.localResourceRoots ?? []).map((u) => u.toString()),
        enableScripts: p.panel.webview.options.enableScripts === true,
        draft: p.draftState(),
      })),
    ),
    // The panel of `recordKey` opened under `profileId` (default: the active profile).
    registerRawCommand(FormCommands.simulate, (recordKey: unknown, message: unknown, profileId: unknown) => {
      const owner = typeof profileId === 'string' ? profileId : shell.activeProfile().id;
      const panel = typeof recordKey === 'string' ? panels.get(keyOf(owner, recordKey)) : undefined;
      return panel ? panel.simulate(message) : undefined;
    }),
    {
      dispose: () => {
        shuttingDown = true;
        [...panels.values()].forEach((p) => p.dispose());
      },
    },
  ];
}
