// One taxpayer as every offline consumer sees it (hovers, diagnostics, reconciliation): the PK
// (receiving) and GB (sending) lists of one user type merged, with the date of the lists consulted.
// Readers stay open; the lists' `current` pointers are re-read at most once a second, so a new download
// (in any window) is picked up without a restart or a syscall per lookup. Each open index is marked as
// in use (listStorage.ts), so another window's install keeps it until this window has moved on.

import * as path from 'node:path';
import { ALIAS_TYPES, type AliasType, type GlobalUserType } from '../api/types';
import type { Taxpayer } from '../domain/registryXml';
import { RegistryIndexError } from './format';
import { currentIndexName, indexStorageDir, leaseCurrentIndex, releaseIndexFolder } from './listStorage';
import { RegistryIndexReader } from './reader';

export interface OfflineAlias {
  name: string;
  /** Which list it came from: PK lists hold receiving aliases, GB lists sending ones. */
  kind: AliasType;
  /** The registry document type the alias is for (Invoice, DespatchAdvice). */
  document: string;
  created?: string;
  deleted?: string;
}

export interface OfflineTaxpayer {
  taxNumber: string;
  title: string;
  type?: string;
  accountType?: string;
  firstCreation?: string;
  aliases: OfflineAlias[];
  /** Oldest download time of the lists consulted (ISO): the answer is at least this fresh. */
  downloadedAt: string;
}

export interface OfflineListInfo {
  aliasType: AliasType;
  userType: GlobalUserType;
  downloadedAt: string;
  taxpayers: number;
  folder: string;
}

const POINTER_RECHECK_MS = 1000;

/** Where the extension keeps its registry indexes, under its global storage folder. */
export function registryIndexRoot(globalStoragePath: string): string {
  return path.join(globalStoragePath, 'registry-index');
}

/** Active (not deleted) aliases of one document type. */
export function activeAliases(t: OfflineTaxpayer, kind?: AliasType): OfflineAlias[] {
  return t.aliases.filter((a) => !a.deleted && (kind === undefined || a.kind === kind));
}

export class OfflineRegistry {
  private readers = new Map<AliasType, { folder: string; reader: RegistryIndexReader; downloadedAt: string; taxpayers: number }>();
  private checkedAt = 0;
  /** Folders that could not be opened, not retried until the pointer changes. */
  private readonly unreadable = new Map<AliasType, string>();
  private readonly listeners = new Set<() => void>();

  constructor(
    /** The extension's registry-index root (globalStorage/registry-index). */
    readonly root: string,
    readonly userType: GlobalUserType = 'Invoice',
  ) {}

  /** The downloaded lists for this user type (PK and/or GB); empty when none was downloaded. */
  lists(): OfflineListInfo[] {
    this.refresh();
    return [...this.readers].map(([aliasType, r]) => ({ aliasType, userType: this.userType, downloadedAt: r.downloadedAt, taxpayers: r.taxpayers, folder: r.folder }));
  }

  hasIndex(): boolean {
    return this.lists().length > 0;
  }

  /** The taxpayer from every downloaded list that has it, merged; undefined when none has it. */
  lookup(taxNumber: string): OfflineTaxpayer | undefined {
    this.refresh();
    let found: OfflineTaxpayer | undefined;
    for (const [aliasType, r] of [...this.readers]) {
      let t: Taxpayer | undefined;
      try {
        t = r.reader.byTaxNumber(taxNumber);
      } catch (error) {
        if (!(error instanceof RegistryIndexError)) throw error;
        // A damaged list answers nothing rather than something wrong, until it is downloaded again.
        this.drop(aliasType);
        continue;
      }
      if (!t) continue;
      found ??= { taxNumber: t.Identifier, title: t.Title, type: t.Type || undefined, accountType: t.AccountType || undefined, firstCreation: t.FirstCreationTime || undefined, aliases: [], downloadedAt: r.downloadedAt };
      if (r.downloadedAt < found.downloadedAt) found.downloadedAt = r.downloadedAt;
      found.aliases.push(...aliasesOf(t, aliasType, this.userType));
    }
    return found;
  }

  /** Called after a download or deletion; also re-reads the pointers now. */
  invalidate(): void {
    this.checkedAt = 0;
    this.refresh();
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Releases the open files (Windows cannot replace an index folder with open files). */
  close(): void {
    for (const aliasType of [...this.readers.keys()]) this.drop(aliasType);
    this.checkedAt = 0;
  }

  private drop(aliasType: AliasType): void {
    const open = this.readers.get(aliasType);
    if (!open) return;
    open.reader.close();
    releaseIndexFolder(open.folder);
    this.readers.delete(aliasType);
  }

  private refresh(): void {
    const now = Date.now();
    if (now - this.checkedAt < POINTER_RECHECK_MS) return;
    this.checkedAt = now;
    let changed = false;
    for (const aliasType of ALIAS_TYPES) {
      const dir = indexStorageDir(this.root, aliasType, this.userType);
      const name = currentIndexName(dir);
      const folder = name ? path.join(dir, name) : undefined;
      const open = this.readers.get(aliasType);
      if (open?.folder === folder || (!open && folder && this.unreadable.get(aliasType) === folder)) continue;
      this.unreadable.delete(aliasType);
      this.drop(aliasType);
      changed = true;
      if (!folder) continue;
      const leased = leaseCurrentIndex(dir);
      if (!leased) {
        // `current` names nothing complete (a start-up sweep repairs it) or changed meanwhile.
        this.unreadable.set(aliasType, folder);
        continue;
      }
      try {
        const reader = RegistryIndexReader.openFolder(leased);
        this.readers.set(aliasType, { folder: leased, reader, downloadedAt: reader.meta.downloadedAt, taxpayers: reader.meta.taxpayers });
      } catch {
        releaseIndexFolder(leased);
        this.unreadable.set(aliasType, leased);
        // An older format (rebuilt from its ZIP by the extension), or a damaged or foreign folder:
        // no list until then; the next download replaces it.
      }
    }
    if (changed) for (const l of this.listeners) l();
  }
}

function aliasesOf(t: Taxpayer, kind: AliasType, userType: GlobalUserType): OfflineAlias[] {
  return t.Documents.filter((d) => d.type === userType).flatMap((d) =>
    d.aliases.map((a) => ({ name: a.Name, kind, document: d.type, created: a.CreationTime || undefined, deleted: a.DeletionTime || undefined })),
  );
}

const registries = new Map<string, OfflineRegistry>();

/** One shared instance per index root and user type, so hovers, diagnostics and reconciliation share open files. */
export function offlineRegistry(root: string, userType: GlobalUserType = 'Invoice'): OfflineRegistry {
  const key = `${root}\0${userType}`;
  let r = registries.get(key);
  if (!r) registries.set(key, (r = new OfflineRegistry(root, userType)));
  return r;
}

/** Closes every shared instance's files (before an index is replaced, and on deactivate). */
export function closeOfflineRegistries(): void {
  for (const r of registries.values()) r.close();
}

/** After a download: every shared instance re-reads its pointers and tells its listeners. */
export function invalidateOfflineRegistries(): void {
  for (const r of registries.values()) r.invalidate();
}
