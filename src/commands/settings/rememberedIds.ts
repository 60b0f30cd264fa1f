// Template and series IDs used before, with their names, kept in globalState (IDs and names only),
// because the API has no operation that lists them.
import type * as vscode from 'vscode';

export interface RememberedId {
  ID: number;
  Name?: string;
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
  async remember(id: number, name?: string): Promise<void> {
    const previous = this.all().find((r) => r.ID === id);
    const entry: RememberedId = { ID: id, ...((name ?? previous?.Name) ? { Name: name ?? previous?.Name } : {}) };
    await this.state.update(this.key, [entry, ...this.all().filter((r) => r.ID !== id)].slice(0, 20));
  }
}
