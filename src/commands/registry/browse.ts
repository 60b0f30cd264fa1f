// "Browse the Registry": GET /GlobalCompany page by page in a quick pick with a "Load more" entry.
import * as vscode from 'vscode';
import type { GlobalCustomerResponse } from '../../api/types';
import { readSettings } from '../../shell/settings';
import { prompts, UserCancelledError } from '../../shell/prompts';
import type { PaletteContext } from './paletteContext';
import { showDetail } from './lookups';
import { withCancellableProgress } from '../../shell/cancellableProgress';
import type { RegistryDetail } from './registryDetail';
import { aliasesCounted } from '../../shell/counted';

type BrowseItem = vscode.QuickPickItem & { taxNumber?: string; loadMore?: boolean };

export async function browseRegistry(ctx: PaletteContext): Promise<RegistryDetail> {
  const client = await ctx.shell.client();
  const pageSize = readSettings().pageSize;
  const loaded: GlobalCustomerResponse[] = [];
  let page = 0;
  let totalPages = 1;
  let total = 0;
  const loadNext = async () => {
    page++;
    const result = await withCancellableProgress(vscode.l10n.t('Loading registry page {0}…', page), (signal) => client.registry.list({ Page: page, PageSize: pageSize }, { signal }));
    loaded.push(...(result.Content ?? []));
    totalPages = result.TotalPages ?? Math.ceil((result.TotalCount ?? 0) / pageSize);
    total = result.TotalCount ?? loaded.length;
  };
  await loadNext();
  for (;;) {
    const items: BrowseItem[] = loaded.map((e) => ({
      label: e.Title ?? e.TaxNumber ?? '',
      description: e.TaxNumber ?? '',
      detail: [e.Type, e.AccountType, aliasesCounted(e.Aliases?.length ?? 0)].filter(Boolean).join(' · '),
      taxNumber: e.TaxNumber ?? undefined,
    }));
    if (page < totalPages) items.push({ label: `$(more) ${vscode.l10n.t('Load more…')}`, description: vscode.l10n.t('{0} of {1} shown', loaded.length, total), loadMore: true, alwaysShow: true });
    const picked = await prompts.quickPick(items, { title: total === 1 ? vscode.l10n.t('Taxpayer Registry ({0} taxpayer)', 1) : vscode.l10n.t('Taxpayer Registry ({0} taxpayers)', total), matchOnDescription: true, ignoreFocusOut: true });
    if (!picked) throw new UserCancelledError();
    if (picked.loadMore) {
      await loadNext();
      continue;
    }
    return showDetail(ctx, { taxNumber: picked.taxNumber });
  }
}
