// The forms feature (loaded on first use, src/features/index.ts): the form commands (nilvera.forms.*), the
// restoring of panels after a window reload (activate() registers one serializer per form type and hands
// the panel over to FormPanels.restore), and one panel per record: opening a record twice focuses its panel.
import * as vscode from 'vscode';
import { FormCommands, FormViewTypes } from '../constants';
import type { CertificateResponse, CustomerDto } from '../api/types';
import { registerCommand, registerRawCommand } from '../shell/commandRunner';
import { log } from '../shell/log';
import { prompts } from '../shell/prompts';
import { UserFacingError } from '../shell/errorMessages';
import type { Profile } from '../shell/profileStore';
import type { FeatureParts } from '../shell/featureParts';
import type { ShellServices } from '../shell/services';
import { certificateForm } from './forms/certificate';
import { companyForm } from './forms/company';
import { customerForm, customerIdOf } from './forms/customer';
import type { FormModel } from './forms/formModel';
import type { DataArea } from '../shell/dataChanges';
import { settingsForm } from './forms/settings';
import { FormPanel, type FormPanelHost } from './formPanel';
import { FORM_KINDS, isRecord, parsePersistedState, type FormKind, type FormValues } from './protocol';

/** Each form's model: from its command's argument, and from a persisted record key (serializer, "Restore"). */
const FORMS: Record<FormKind, { fromArg(arg: unknown): FormModel; fromKey(recordKey: string): FormModel }> = {
  company: { fromArg: companyForm, fromKey: companyForm },
  settings: { fromArg: settingsForm, fromKey: settingsForm },
  customer: {
    fromArg: (arg) => {
      const a = isRecord(arg) ? arg : {};
      const customerId = typeof a.customerId === 'number' && Number.isInteger(a.customerId) ? a.customerId : undefined;
      return customerForm(customerId, isRecord(a.prefill) ? (a.prefill as Partial<CustomerDto>) : undefined);
    },
    fromKey: (recordKey) => customerForm(customerIdOf(recordKey)),
  },
  certificate: {
    fromArg: (arg) => {
      const c = isRecord(arg) && isRecord(arg.certificate) ? arg.certificate : undefined;
      return certificateForm(typeof c?.ID === 'number' ? (c as unknown as CertificateResponse) : undefined);
    },
    // The form re-reads the certificate by ID on load.
    fromKey: (recordKey) => {
      const id = /^certificate:(\d+)$/.exec(recordKey);
      return certificateForm(id ? ({ ID: Number(id[1]) } as CertificateResponse) : undefined);
    },
  },
};

/** The open form panels, one per profile and record: opening a record twice focuses its panel. */
class FormPanels implements vscode.Disposable {
  private readonly panels = new Map<string, FormPanel>();
  private shuttingDown = false;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly shell: ShellServices,
  ) {}

  /** A form belongs to the profile it was opened in. */
  private static keyOf(profileId: string, recordKey: string): string {
    return `${profileId}\u0000${recordKey}`;
  }

  open(model: FormModel, draft?: FormValues, existing?: vscode.WebviewPanel): FormPanel {
    const owner = this.shell.activeProfile();
    const key = FormPanels.keyOf(owner.id, model.recordKey);
    const current = this.panels.get(key);
    if (current && !existing) {
      current.panel.reveal();
      return current;
    }
    const webviewPanel = existing ?? vscode.window.createWebviewPanel(FormViewTypes[model.kind], model.initialTitle(), vscode.ViewColumn.Active, { enableFindWidget: true });
    const panel = new FormPanel(webviewPanel, model, this.hostFor(owner), draft);
    this.panels.set(key, panel);
    return panel;
  }

  /** Reattaches a panel VS Code restored after a reload; the page restores its own draft from getState(). */
  restore(viewType: string, webviewPanel: vscode.WebviewPanel, state: unknown): void {
    const kind = FORM_KINDS.find((k) => FormViewTypes[k] === viewType);
    if (!kind) return webviewPanel.dispose();
    const persisted = parsePersistedState(state);
    const recordKey = persisted?.kind === kind ? persisted.recordKey : FORMS[kind].fromKey(`${kind}:new`).recordKey;
    // A restored panel belongs to the profile active when the window came back.
    if (this.panels.has(FormPanels.keyOf(this.shell.activeProfile().id, recordKey))) return webviewPanel.dispose();
    this.open(FORMS[kind].fromKey(recordKey), undefined, webviewPanel);
  }

  /** Tests: what each open panel holds. */
  inspect(): unknown[] {
    return [...this.panels].map(([key, p]) => ({
      profileId: key.slice(0, key.indexOf('\u0000')),
      viewType: p.panel.viewType,
      recordKey: p.model.recordKey,
      title: p.panel.title,
      html: p.panel.webview.html,
      cspSource: p.panel.webview.cspSource,
      localResourceRoots: (p.panel.webview.options.localResourceRoots ?? []).map((u) => u.toString()),
      enableScripts: p.panel.webview.options.enableScripts === true,
      draft: p.draftState(),
    }));
  }

  /** Tests: posts `message` as the page of `recordKey` opened under `profileId` (default: the active profile). */
  simulate(recordKey: unknown, message: unknown, profileId: unknown): unknown {
    const owner = typeof profileId === 'string' ? profileId : this.shell.activeProfile().id;
    const panel = typeof recordKey === 'string' ? this.panels.get(FormPanels.keyOf(owner, recordKey)) : undefined;
    return panel ? panel.simulate(message) : undefined;
  }

  dispose(): void {
    this.shuttingDown = true;
    [...this.panels.values()].forEach((p) => p.panel.dispose());
  }

  /** The host of a panel opened under `owner`: its loads and saves go to that profile's account only. */
  private hostFor(owner: Profile): FormPanelHost {
    const shell = this.shell;
    return {
      extensionUri: this.extensionUri,
      dataChanged: async (areas: DataArea[]) => areas.forEach((area) => shell.dataChanged(area)),
      ...(shell.profiles.store.all().length > 1 ? { titleSuffix: owner.name } : {}),
      environment: () => owner.environment,
      async client() {
        const active = shell.activeProfile();
        if (active.id !== owner.id) {
          throw new UserFacingError(vscode.l10n.t('This form belongs to the profile "{0}", and "{1}" is active now. Nothing was loaded or saved: switch back to "{0}" to use it.', owner.name, active.name));
        }
        return shell.client();
      },
      closed: (panel: FormPanel, draft: FormValues | undefined) => {
        const key = FormPanels.keyOf(owner.id, panel.model.recordKey);
        if (this.panels.get(key) === panel) this.panels.delete(key);
        log.info(`Form ${panel.model.recordKey} closed${draft ? ' with unsaved changes' : ''}.`);
        // A webview cannot stop its tab from closing, so unsaved edits are offered back instead.
        if (draft && !this.shuttingDown) this.offerRestore(panel.model.kind, panel.model.recordKey, panel.title, draft).catch((e: unknown) => log.error(`Restoring a draft failed: ${String(e)}`));
      },
      rekeyed: (panel: FormPanel, previousKey: string) => {
        if (this.panels.get(FormPanels.keyOf(owner.id, previousKey)) === panel) this.panels.delete(FormPanels.keyOf(owner.id, previousKey));
        this.panels.set(FormPanels.keyOf(owner.id, panel.model.recordKey), panel);
      },
    };
  }

  private async offerRestore(kind: FormKind, recordKey: string, title: string, draft: FormValues): Promise<void> {
    const restore = vscode.l10n.t('Restore');
    const choice = await prompts.message('warning', vscode.l10n.t('"{0}" was closed with unsaved changes.', title), undefined, restore);
    if (choice === restore) this.open(FORMS[kind].fromKey(recordKey), draft).panel.reveal();
  }
}

export function activateFeature(context: vscode.ExtensionContext, shell: ShellServices): FeatureParts {
  const forms = new FormPanels(context.extensionUri, shell);
  context.subscriptions.push(
    ...FORM_KINDS.map((k) => registerCommand(FormCommands[k], (arg) => void forms.open(FORMS[k].fromArg(arg)))),
    registerRawCommand(FormCommands.inspect, () => forms.inspect()),
    registerRawCommand(FormCommands.simulate, (recordKey: unknown, message: unknown, profileId: unknown) => forms.simulate(recordKey, message, profileId)),
    forms,
  );
  return { restore: (viewType, panel, state) => forms.restore(viewType, panel, state) };
}
