// The `nilvera.csv.separator` setting read as the enum it is: a workspace can write any string there
// ("constructor", "__proto__", …), and only the four values of the manifest choose a separator.
import type { CsvDelimiter } from '../domain/csv';
import { enumValue } from '../domain/enumValue';

export const SEPARATOR_SETTINGS = ['auto', 'comma', 'semicolon', 'tab'] as const;
export type SeparatorSetting = (typeof SEPARATOR_SETTINGS)[number];

const BY_SETTING: Record<Exclude<SeparatorSetting, 'auto'>, CsvDelimiter> = { comma: ',', semicolon: ';', tab: '\t' };

/** The delimiter the setting names; undefined for "auto" and for anything that is not one of the values (then the display language decides). */
export function separatorOfSetting(value: unknown): CsvDelimiter | undefined {
  const setting = enumValue(value, SEPARATOR_SETTINGS);
  return setting && setting !== 'auto' ? BY_SETTING[setting] : undefined;
}
