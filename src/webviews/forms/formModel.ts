// What each form supplies to the shared panel controller: how to load its record, how to save it,
// and the fields it shows. One module per form under forms/.
import type { NilveraClient } from '../../api';
import type { EnvironmentId } from '../../shell/environments';
import type { FormKind, FormSpec, FormValues } from '../protocol';
import type { DataArea } from '../../shell/dataChanges';

export type LoadedForm = Pick<FormSpec, 'title' | 'description' | 'sections' | 'lookupField'> & {
  values: FormValues;
  /** Values proposed for a new record (a prefill): shown as unsaved changes over `values`, so Save is enabled. */
  proposed?: FormValues;
};

export interface FormModel {
  readonly kind: FormKind;
  /** Which record: stays the same for the panel's life except when a create turns into an edit. */
  recordKey: string;
  /** The data areas a save changes. */
  readonly areas: DataArea[];
  /** A title for the tab before the record has loaded. */
  initialTitle(): string;
  load(client: NilveraClient): Promise<LoadedForm>;
  /** Sends the changes; `baseline` is what was loaded; `account`: the profile's environment. Throws the API error on failure. */
  save(client: NilveraClient, values: FormValues, baseline: FormValues, account: { environment: EnvironmentId }): Promise<void>;
  /** "Look up in registry": values to fill in for a tax number. */
  lookup?(client: NilveraClient, taxNumber: string): Promise<FormValues>;
}

/** A form value as a server string: trimmed, '' becomes null. */
export function orNull(v: string | boolean | undefined): string | null {
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t === '' ? null : t;
}
