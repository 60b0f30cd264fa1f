// The tax numbers of GİB's own sample documents (UBL-TR1.2.1_Paketi/xml and e-FaturaPaketi/xml,
// release 20260312), whose check digits are wrong: documents started from GİB's samples keep them.
// The editor says so instead of offering a "corrected" number, which would be some real taxpayer's.
// Only numbers that recur across GİB's samples or are plainly made up; the one place they are listed.
// Not GİB's placeholders (2222222222, 11111111111: src/domain/ubl/taxSchemes.ts), which GİB prescribes.

/** Number → the samples that use it (a few names each). */
export const GIB_SAMPLE_TAX_NUMBERS: ReadonlyMap<string, string> = new Map([
  ['1288331521', 'HASTANE.xml, ISTISNA-1.xml, TEVKIFAT.xml and 17 more'],
  ['1288331523', 'Irsaliye-Ornek1.xml, Irsaliye-Ornek2.xml, Irsaliye-Matbudan.xml'],
  ['3333333888', 'IDIS_Fatura.xml, IDIS_Irsaliye.xml, SARJ.xml and 13 more'],
  ['1111111111', 'IHRACAT.xml, IDIS_Irsaliye.xml and 3 more'],
  ['1111111157', 'HKS-Ornek1.xml, HKS-Ornek2.xml'],
  ['1888888888', 'OZELMATRAH.xml'],
  ['9999999999', "e-FaturaPaketi's 1_TEMEL_FATURA.xml, the system responses and 23 more"],
  ['99999999999', "e-FaturaPaketi's TEKNOLOJI_DESTEK.xml"],
  ['77777777703', 'YOLCUBERABER.xml'],
  ['14922266699', 'Irsaliye-Ornek1.xml, Irsaliye-Ornek2.xml, Irsaliye-Matbudan.xml'],
  ['14922266600', 'Irsaliye-Ornek1.xml, Irsaliye-Ornek2.xml, Irsaliye-Matbudan.xml'],
]);

export function isGibSampleTaxNumber(value: string): boolean {
  return GIB_SAMPLE_TAX_NUMBERS.has(value.trim());
}
