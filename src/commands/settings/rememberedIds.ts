// Template and series IDs used before, with their names, kept in globalState (IDs and names only),
// because the API has no operation that lists them.
import type * as vscode from 'vscode';

export interface RememberedId {
  ID: number;
  Name?: string;
  /** The flags this extension last set (the API cannot read them back). */
  IsActive?: boolean;
  IsDefault?: boolean;
}

export class RememberedIds {
  constructor(
    private readonly state: vscode.Memento,
    private readonly key: string,
  ) {}

  all(): RememberedId[] {
    return this.state.get<RememberedId[]>(this.key) ?? [];
  }

  /** Moves the ID to the front (most recent first); a known name is kept unless a new one is given. */
  async remember(id: number, name?: string, flags?: { IsActive: boolean; IsDefault: boolean }): Promise<void> {
    const previous = this.all().find((r) => r.ID === id);
    const known = flags ?? (previous?.IsActive !== undefined ? { IsActive: previous.IsActive, IsDefault: previous.IsDefault === true } : undefined);
    const entry: RememberedId = { ID: id, ...((name ?? previous?.Name) ? { Name: name ?? previous?.Name } : {}), ...(known ?? {}) };
    // Only one can be the default: the others remembered as default no longer are.
    const others = this.all()
      .filter((r) => r.ID !== id)
      .map((r) => (flags?.IsDefault && r.IsDefault ? { ...r, IsDefault: false } : r));
    await this.state.update(this.key, [entry, ...others].slice(0, 20));
  }
}
