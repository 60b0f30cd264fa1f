// The hover's optional live registry look-up (setting nilvera.editor.hoverOnlineLookup): through the
// cache and rate limit of ./onlineCache, keyed by the environment's base URL and the tax number,
// cancelled with the hover, with a short time limit. Never throws: a failure becomes a card line.
import type * as vscode from 'vscode';
import type { GlobalCompanyInfoResponse } from '../../api/types';
import { isApiError } from '../../shell/apiContract';
import type { ShellServices } from '../../shell/services';
import type { OnlineFinding } from './hoverCard';
import { OnlineLookupCache } from './onlineCache';
import { abortSignalOf } from '../../shell/cancellableProgress';

/** A hover waits at most this long for the registry. */
export const HOVER_LOOKUP_TIMEOUT_MS = 5000;

function findingFromRows(rows: GlobalCompanyInfoResponse[] | undefined): OnlineFinding {
  if (!rows || rows.length === 0) return { state: 'notRegistered' };
  const aliases = [...new Set(rows.map((r) => r.Name).filter((n): n is string => !!n))];
  return { state: 'registered', title: rows.find((r) => r.Title)?.Title ?? '', aliases };
}

/** The card's reason for each kind of API error; any other error is 'other'. */
const FAILURES: Partial<Record<string, Extract<OnlineFinding, { state: 'failed' }>['reason']>> = {
  timeout: 'timeout',
  network: 'network',
  auth: 'auth',
  forbidden: 'auth',
  server: 'server',
  rateLimited: 'server',
};

export class HoverOnlineLookup {
  private readonly cache = new OnlineLookupCache<OnlineFinding>();

  constructor(private readonly shell: ShellServices) {}

  /** The registry's answer for a valid tax number (Invoice users), or why there is none. */
  async find(taxNumber: string, token: vscode.CancellationToken): Promise<OnlineFinding> {
    const environment = this.shell.environment();
    // Looking up must not start a sandbox process: that is "Try the Sandbox"'s job.
    if (environment === 'sandbox' && !this.shell.sandbox.current()) return { state: 'sandboxStopped' };
    const abort = abortSignalOf(token);
    try {
      const baseUrl = await this.shell.baseUrl(environment);
      if (!(await this.shell.hasApiKey(environment))) return { state: 'noKey' };
      const result = await this.cache.lookup(`${baseUrl}|${taxNumber}`, async () => {
        const client = await this.shell.client();
        const rows = await client.registry.checkTaxNumber(taxNumber, 'Invoice', { signal: abort.signal, timeoutMs: HOVER_LOOKUP_TIMEOUT_MS });
        return findingFromRows(rows);
      });
      return result.outcome === 'rateLimited' ? { state: 'rateLimited' } : result.value;
    } catch (error) {
      return { state: 'failed', reason: (isApiError(error) && FAILURES[error.kind]) || 'other' };
    } finally {
      abort.dispose();
    }
  }

  clear(): void {
    this.cache.clear();
  }
}
