// The one size format of everything the user reads: binary units labelled B, KB, MB, GB as Windows
// Explorer and VS Code write them (1 KB = 1,024 bytes), so a limit ("64 MB") and a file's size read
// as Explorer shows them; the decimal mark is the given locale's ("1.5 KB" / "1,5 KB").

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * "512 B", "1.5 KB", "64 MB", "1 GB": an exact multiple of its unit without a fraction (a limit), any
 * other value with one decimal, so one byte over 64 MB reads "64.0 MB", not the limit itself.
 */
export function formatByteSize(bytes: number, locale = 'en'): string {
  let value = bytes;
  let unit = 0;
  // 1023.96 KB would round to "1,024.0 KB": it is written as the next unit ("1 MB").
  while (value >= 1023.95 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || Number.isInteger(value) ? 0 : 1;
  return `${value.toLocaleString(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${UNITS[unit]}`;
}
