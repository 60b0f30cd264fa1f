// GİB's addresses of its two archives (../shared/data/gib/SOURCES.md): the default of the settings
// nilvera.gibRules.rulesUrl / schemasUrl (package.json holds the same, test/unit/gib/packageKind.test.ts).
// A module of its own so the commands can name them without loading the store.

/** GİB's addresses (../shared/data/gib/SOURCES.md), the default of the setting. */
export const GIB_DEFAULT_URLS = {
  rules: 'https://ebelge.gib.gov.tr/dosyalar/kilavuzlar/e-FaturaPaketi.zip',
  schemas: 'https://ebelge.gib.gov.tr/dosyalar/kilavuzlar/UBL-TR1.2.1_Paketi.zip',
} as const;

export interface GibUrls {
  readonly rules: string;
  readonly schemas: string;
}
