// One form in one webview panel: loads the record through the API client, answers the page's
// requests (save, reload, registry lookup) by request id, and keeps the page's latest draft so an
// unsaved edit can be restored after the tab was closed.
import * as vscode from 'vscode';
import type { EnvironmentId } from '../shell/environments';
import type { NilveraClient } from '../api';
import { isApiError } from '../shell/apiContract';
import { describeError } from '../shell/errorMessages';
import { log } from '../shell/log';
import type { FormModel, LoadedForm } from './forms/formModel';
import { formHtml, prepareWebview } from './html';
import { checkPageMessage, fieldNames, summarizeMessage, type FieldSpec, type FormLabels, type FormSpec, type FormValues, type HostMessage, type PageMessage } from './protocol';
import { changedFields, formProblems, mapServerMessages } from './validation';

export interface FormPanelHost {
  extensionUri: vscode.Uri;
  /** The client of the profile the form belongs to; rejects while another profile is active. */
  client(): Promise<NilveraClient>;
  /** The environment of the profile the form belongs to (the active one whenever `client()` answers). */
  environment(): EnvironmentId;
  /** Added to the tab title: the profile the form belongs to, when the user has several. */
  titleSuffix?: string;
  /** Called after a successful save with the areas that changed. */
  dataChanged(areas: FormModel['areas']): Promise<void>;
  /** The panel closed; `draft` holds unsaved values (passwords left out), if any. */
  closed(panel: FormPanel, draft: FormValues | undefined): void;
  /** The record key changed (a create became an edit). */
  rekeyed(panel: FormPanel, previousKey: string): void;
}

export function formLabels(): FormLabels {
  return {
    save: vscode.l10n.t('Save'),
    reload: vscode.l10n.t('Reload'),
    lookup: vscode.l10n.t('Look up in registry'),
    saving: vscode.l10n.t('Saving…'),
    saved: vscode.l10n.t('Saved.'),
    unsaved: vscode.l10n.t('Unsaved changes'),
    invalid: vscode.l10n.t('Correct the marked fields to save.'),
    serverErrors: vscode.l10n.t('The server did not accept the changes:'),
    loadFailed: vscode.l10n.t('The record could not be loaded:'),
    messages: {
      required: vscode.l10n.t('This field is required.'),
      email: vscode.l10n.t('Enter an e-mail address such as name@example.com.'),
      phone: vscode.l10n.t('Enter a phone number of 7 to 15 digits.'),
      postalCode: vscode.l10n.t('A postal code has five digits.'),
      url: vscode.l10n.t('Enter a web address such as www.example.com.'),
      iban: vscode.l10n.t('This is not a valid IBAN (check the digits).'),
      taxId: vscode.l10n.t('This is not a valid VKN (10 digits) or TCKN (11 digits): check the digits.'),
      date: vscode.l10n.t('Enter a date as YYYY-MM-DD.'),
      notBeforeStart: vscode.l10n.t('The end date is before the start date.'),
    },
  };
}

export class FormPanel {
  private loaded: LoadedForm | undefined;
  private loading: Promise<LoadedForm | undefined> | undefined;
  private draft: { dirty: boolean; values: FormValues } | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;
  /** The last request id answered since the page (re)started; a request must carry a later one. */
  private lastRequestId = -1;
  /** The tab title, kept here because a disposed panel can no longer be asked. */
  title: string;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly model: FormModel,
    private readonly host: FormPanelHost,
    /** Values to show over the loaded record (a restored draft). */
    private restoreDraft?: FormValues,
  ) {
    const script = prepareWebview(panel, host.extensionUri, 'forms');
    this.title = this.titled(model.initialTitle());
    panel.title = this.title;
    panel.webview.html = formHtml(panel.webview, script, this.title);
    this.disposables.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw)),
      panel.onDidDispose(() => this.onDisposed()),
    );
  }

  private titled(title: string): string {
    return this.host.titleSuffix ? `${title} · ${this.host.titleSuffix}` : title;
  }

  /** What the page last reported of its draft: nothing yet, clean, or with unsaved edits (tests read it). */
  draftState(): 'none' | 'clean' | 'dirty' {
    return this.draft === undefined ? 'none' : this.draft.dirty ? 'dirty' : 'clean';
  }

  /** Unsaved values as the page last reported them, without passwords. */
  unsavedDraft(): FormValues | undefined {
    if (!this.draft?.dirty || !this.loaded) return undefined;
    const values = { ...this.draft.values };
    for (const f of this.fields()) if (f.kind === 'password') delete values[f.name];
    return values;
  }

  /** For tests: handles a message as if the page had sent it; returns what the host answered. */
  async simulate(raw: unknown): Promise<HostMessage[]> {
    const answers: HostMessage[] = [];
    await this.receive(raw, (m) => answers.push(m));
    return answers;
  }

  private fields(): FieldSpec[] {
    return this.loaded?.sections.flatMap((s) => s.fields) ?? [];
  }

  private spec(loaded: LoadedForm): FormSpec {
    const { values: _values, proposed: _proposed, ...shown } = loaded;
    return { kind: this.model.kind, recordKey: this.model.recordKey, ...shown, labels: formLabels() };
  }

  private async load(): Promise<LoadedForm | undefined> {
    this.loading ??= (async () => {
      const client = await this.host.client();
      const loaded = await this.model.load(client);
      this.loaded = loaded;
      this.title = this.titled(loaded.title);
      if (!this.disposed) this.panel.title = this.title;
      return loaded;
    })().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async receive(raw: unknown, reply: (m: HostMessage) => void = (m) => void this.panel.webview.postMessage(m)): Promise<void> {
    if (this.disposed) return;
    const allowed = this.loaded ? fieldNames(this.loaded) : undefined;
    const checked = checkPageMessage(raw, allowed);
    const problem = checked.ok ? this.misdirected(checked.message) : checked.reason;
    if (problem || !checked.ok) {
      // The reason and the message's shape only, never its content: values may hold a password.
      log.warn(`Form ${this.model.kind} (${this.model.recordKey}): dropped a page message: ${problem}. Message: ${summarizeMessage(raw)}.`);
      return;
    }
    const message = checked.message;
    // A page that (re)loads counts its request ids from the start again.
    if (message.type === 'ready') this.lastRequestId = -1;
    if ('requestId' in message) this.lastRequestId = message.requestId;
    try {
      await this.handle(message, reply);
    } catch (error) {
      log.error(`Form ${this.model.kind}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Why a well-formed message is not for this panel: another form or record, or a replayed request. */
  private misdirected(message: PageMessage): string | undefined {
    if (message.kind !== undefined && message.kind !== this.model.kind) return `it is meant for the ${message.kind} form`;
    if (message.recordKey !== undefined && message.recordKey !== this.model.recordKey) return 'it is meant for another record';
    if ('requestId' in message && message.requestId <= this.lastRequestId) return `stale request id ${message.requestId} (the last was ${this.lastRequestId})`;
    return undefined;
  }

  private async handle(message: PageMessage, reply: (m: HostMessage) => void): Promise<void> {
    switch (message.type) {
      case 'ready':
        return this.sendInit(reply);
      case 'draft':
        this.draft = { dirty: message.dirty, values: message.values };
        return;
      case 'reload':
        return this.answer(message.requestId, reply, async () => {
          const loaded = await this.load();
          return loaded ? { values: loaded.values, spec: this.spec(loaded) } : {};
        });
      case 'save':
        return this.answer(message.requestId, reply, () => this.save(message.values));
      case 'lookup':
        return this.answer(message.requestId, reply, async () => {
          if (!this.model.lookup) return {};
          const values = await this.model.lookup(await this.host.client(), message.taxNumber);
          return { values };
        });
    }
  }

  private async sendInit(reply: (m: HostMessage) => void): Promise<void> {
    try {
      const loaded = this.loaded ?? (await this.load());
      if (!loaded) return;
      const draft = this.restoreDraft ?? loaded.proposed;
      this.restoreDraft = undefined;
      reply({ type: 'init', spec: this.spec(loaded), values: loaded.values, ...(draft ? { draft } : {}) });
    } catch (error) {
      // The page shows the reason above an empty form, with Reload to try again.
      reply({ type: 'init', spec: this.spec({ title: this.title, sections: [], values: {} }), values: {} });
      reply({ type: 'response', requestId: 0, ok: false, fieldErrors: {}, formErrors: [describeError(error).text] });
    }
  }

  private async save(values: FormValues): Promise<Answer> {
    const loaded = this.loaded ?? (await this.load());
    if (!loaded) throw new Error('The form has not loaded.');
    const fields = this.fields();
    // The page checks as the user types; the host checks again and never sends an invalid form.
    const merged: FormValues = { ...loaded.values, ...values };
    for (const f of fields) if (f.readOnly) merged[f.name] = loaded.values[f.name] ?? '';
    const badSelect = fields.find((f) => f.kind === 'select' && !f.options?.some((o) => o.value === merged[f.name]));
    const problems = badSelect ? { [badSelect.name]: 'required' as const } : formProblems(fields, loaded.values, merged);
    if (Object.keys(problems).length > 0) {
      const messages = formLabels().messages;
      return { fieldErrors: Object.fromEntries(Object.entries(problems).map(([k, v]) => [k, messages[v]])) };
    }
    if (changedFields(fields, loaded.values, merged).length === 0 && this.model.recordKey.endsWith(':new') === false) {
      return { values: loaded.values, spec: this.spec(loaded), notice: formLabels().saved };
    }
    const previousKey = this.model.recordKey;
    await this.model.save(await this.host.client(), merged, loaded.values, { environment: this.host.environment() });
    if (this.model.recordKey !== previousKey) this.host.rekeyed(this, previousKey);
    await this.host.dataChanged(this.model.areas);
    const reloaded = await this.load();
    this.draft = undefined;
    const fresh = reloaded ?? loaded;
    return { values: fresh.values, spec: this.spec(fresh), notice: formLabels().saved };
  }

  private async answer(requestId: number, reply: (m: HostMessage) => void, work: () => Promise<Answer>): Promise<void> {
    try {
      const result = await work();
      // Local check failures are answered as field messages.
      if ('fieldErrors' in result) reply({ type: 'response', requestId, ok: false, formErrors: [], ...result });
      else reply({ type: 'response', requestId, ok: true, ...result });
    } catch (error) {
      log.error(`Form ${this.model.kind}: ${error instanceof Error ? error.message : String(error)}`);
      // The server's own messages, next to the fields they name; any other failure above the form.
      const fieldMessages = isApiError(error) && ['validation', 'badRequest', 'conflict', 'notFound'].includes(error.kind) && error.messages.length > 0;
      const errors = fieldMessages ? mapServerMessages(this.fields(), error.messages) : { fieldErrors: {}, formErrors: [describeError(error).text] };
      reply({ type: 'response', requestId, ok: false, ...errors });
    }
  }

  private onDisposed(): void {
    if (this.disposed) return;
    this.disposed = true;
    const draft = this.unsavedDraft();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.host.closed(this, draft);
  }
}

/** What a request's work answers: the form's new state, or the local checks' messages by field. */
type Answer = { values?: FormValues; spec?: FormSpec; notice?: string } | { fieldErrors: Record<string, string> };
