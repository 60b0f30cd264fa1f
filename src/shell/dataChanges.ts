// The kinds of data a feature can change and announce (a form's save, an import, a delete, Check
// Connection learning how a list answers): ShellServices.dataChanged(area) fires them, and the views,
// when they are loaded, reload only what shows that area. A plain event: nothing is loaded to hear it.

export const DATA_AREAS = ['customers', 'certificates', 'company', 'mailing', 'taxOffice', 'documents', 'identifications'] as const;
export type DataArea = (typeof DATA_AREAS)[number];

export function isDataArea(value: unknown): value is DataArea {
  return typeof value === 'string' && (DATA_AREAS as readonly string[]).includes(value);
}
