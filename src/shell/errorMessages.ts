// Turns a failure into a message a user can act on: what happened, in their language, and which
// actions help (set the key, retry). The server's own descriptions are shown where they explain it.
import * as vscode from 'vscode';
import { isApiError, type ApiErrorShape } from './apiContract';
import { isBareRecordNotFound, isEmptyOrNotOffered, isOperationNotOffered } from './missingOperation';
import { UserCancelledError } from './prompts';

/** An error whose message is already written for the user (localized, no stack, no secrets). */
export class UserFacingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserFacingError';
  }
}

export type ErrorAction = 'setApiKey' | 'retry' | 'showLog' | 'keyringHelp';

export interface DescribedError {
  /** False when the user cancelled: nothing is shown. */
  show: boolean;
  text: string;
  actions: ErrorAction[];
}

/** `base`, then the server's own descriptions of the error. */
function withDescriptions(base: string, error: ApiErrorShape): string {
  const server = error.messages.map((m) => (m.detail && m.detail !== m.description ? `${m.description} (${m.detail})` : m.description));
  return [base, ...server.filter((s) => s.trim().length > 0)].join(' ');
}

export function isCancellation(error: unknown): boolean {
  return (
    error instanceof UserCancelledError ||
    error instanceof vscode.CancellationError ||
    (isApiError(error) && error.kind === 'cancelled') ||
    (error instanceof Error && error.name === 'AbortError')
  );
}

/** The registry ZIP reader's refusals (src/domain/registryZip.ts), duck-typed so this module stays light. */
function registryZipMessage(error: unknown): string | undefined {
  if (!(error instanceof Error) || error.name !== 'RegistryZipError') return undefined;
  const { code, entryName } = error as Error & { code?: string; entryName?: string };
  const entry = entryName ?? '';
  const texts: Record<string, () => string> = {
    corrupt: () => vscode.l10n.t('The downloaded registry list is damaged or incomplete. Download it again.'),
    unsafeEntryName: () =>
      vscode.l10n.t('The registry ZIP holds an entry with an unsafe name ("{0}"); it was not opened and nothing was written.', entry),
    noUsableEntry: () => vscode.l10n.t('The registry ZIP holds no registry list.'),
    multipleLists: () =>
      vscode.l10n.t('The registry ZIP holds more than one list; it is not clear which one to use, so none was read.'),
    unsupportedFormat: () =>
      vscode.l10n.t('The registry ZIP holds a list in a format that is not supported yet ("{0}"); only the XML list is.', entry),
    entryTooLarge: () =>
      vscode.l10n.t('The registry ZIP entry "{0}" is larger than the allowed size once unpacked; reading stopped.', entry),
    compressionRatio: () =>
      vscode.l10n.t('The registry ZIP entry "{0}" unpacks to far more than a registry list could (over 100 times its packed size: a ZIP bomb?); reading stopped.', entry),
  };
  return code && Object.hasOwn(texts, code) ? texts[code]() : undefined;
}

const shown = (text: string, ...actions: ErrorAction[]): DescribedError => ({ show: true, text, actions });

export function describeError(error: unknown): DescribedError {
  if (isCancellation(error)) return { show: false, text: '', actions: [] };
  if (error instanceof UserFacingError) return shown(error.message);
  // The keyring refused (src/shell/apiKeyStore.ts): its message says why and what to do on this system.
  if (error instanceof Error && error.name === 'KeyringUnavailableError') return shown(error.message, 'retry', 'keyringHelp');
  const zipProblem = registryZipMessage(error);
  if (zipProblem) return shown(zipProblem, 'retry', 'showLog');
  if (!isApiError(error)) {
    const text = error instanceof Error ? error.message : String(error);
    return shown(vscode.l10n.t('Something went wrong: {0}', text), 'showLog');
  }
  if (error.outcomeUnknown) {
    // No Retry button: repeating a change that may have been applied could apply it twice.
    return shown(
      vscode.l10n.t('The connection failed after the change was sent, so it may or may not have been saved. Refresh the view to check before trying again.'),
      'showLog',
    );
  }
  switch (error.kind) {
    case 'auth':
    case 'forbidden':
      // Spec-silent (behaviour point badKeyStatus): a wrong or expired key may come back as 401 or 403,
      // and 403 also means a valid key without the permission: both read the same, with the server's words.
      return shown(
        withDescriptions(
          vscode.l10n.t('The API key was rejected or lacks the permission for this operation (HTTP {0}). Check the key and its permissions in the Nilvera portal, or set another key.', error.status ?? (error.kind === 'auth' ? 401 : 403)),
          error,
        ),
        'setApiKey',
      );
    case 'declined':
      return shown(withDescriptions(vscode.l10n.t('The service declined the change (it answered "false"); nothing was saved.'), error), 'showLog');
    case 'validation':
      return shown(withDescriptions(vscode.l10n.t('The server rejected the data:'), error));
    case 'badRequest':
      return shown(withDescriptions(vscode.l10n.t('The server could not process the request:'), error));
    case 'notFound':
      // Which 404 is which: see missingOperation.ts.
      if (isOperationNotOffered(error)) return shown(vscode.l10n.t('This server does not offer this operation (HTTP 404); it may run an older version of the API.'));
      if (isEmptyOrNotOffered(error)) {
        return shown(vscode.l10n.t('Not found (HTTP 404): the list is empty, or this server does not offer this operation. "Nilvera: Check Connection" tells which.'));
      }
      if (isBareRecordNotFound(error)) {
        return shown(
          vscode.l10n.t('Not found (HTTP 404): the record no longer exists, or this server does not offer this operation. Refresh the view; "Nilvera: Check Connection" tells which.'),
        );
      }
      return shown(withDescriptions(vscode.l10n.t('The record no longer exists; refresh the view.'), error));
    case 'conflict':
      return shown(withDescriptions(vscode.l10n.t('The record already exists.'), error));
    case 'rateLimited':
      return shown(vscode.l10n.t('The server is receiving too many requests. Try again in a moment.'), 'retry');
    case 'server':
      return shown(vscode.l10n.t('The Nilvera server had a problem (HTTP {0}).', error.status ?? 500), 'retry', 'showLog');
    case 'timeout':
      return shown(vscode.l10n.t('The server did not answer in time.'), 'retry');
    case 'network':
      return shown(vscode.l10n.t('The server could not be reached. Check the network connection and the environment.'), 'retry', 'showLog');
    case 'malformed':
      return shown(vscode.l10n.t('The server sent an answer that could not be read.'), 'retry', 'showLog');
    case 'redirected': {
      // src/api/redirects.ts: the target's origin is the message's detail (never a path or query).
      const first = error.messages[0];
      if (first?.code === 'ERR_TOO_MANY_REDIRECTS') return shown(vscode.l10n.t('The server redirected the request too many times; it was stopped.'), 'showLog');
      if (first?.code === 'ERR_INSECURE_REDIRECT') return shown(vscode.l10n.t('The server redirected the download to an unencrypted address ({0}); it was not followed.', first.detail ?? '?'), 'showLog');
      return shown(
        vscode.l10n.t('The server redirected the request to another address ({0}). The API key and request data are sent only to the environment\'s own address, so the redirect was not followed. Check the environment\'s URL.', first?.detail ?? '?'),
        'showLog',
      );
    }
    case 'tooLarge':
      // src/api/bodyLimits.ts: the limit, already written out (e.g. "64 MB"), is the message's detail.
      return shown(vscode.l10n.t('The server\'s answer is larger than the limit of {0}; reading stopped and nothing of it was used.', error.messages[0]?.detail ?? '?'), 'showLog');
    default:
      return shown(error.message, 'showLog');
  }
}

export function actionTitle(action: ErrorAction): string {
  const titles: Record<ErrorAction, string> = {
    setApiKey: vscode.l10n.t('Set API Key'),
    retry: vscode.l10n.t('Retry'),
    showLog: vscode.l10n.t('Show Log'),
    keyringHelp: vscode.l10n.t('Open Keyring Help'),
  };
  return titles[action];
}
