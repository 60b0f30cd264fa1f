// A spreadsheet opening a CSV evaluates a cell that starts with `=`, `+`, `-` or `@` (for some programs
// after a tab or carriage return), so a name or a server's text such as `=HYPERLINK("https://…?"&A1;"click")`
// would act in the user's Excel. Every CSV the extension writes passes its cells through `guardFormula`,
// which prefixes such a cell with an apostrophe (OWASP's advice for CSV injection). Digits with the
// punctuation of numbers and phones (`+90 (532) 123 45 67`, `-12,50`) stay as they are: they can neither
// call a function nor refer to a cell, and an apostrophe would spoil the phone number. Workbooks need
// no guard: their text cells are never evaluated.

/** The first characters that make a spreadsheet read a cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Digits with the signs, spaces, brackets, dots, commas, slashes and hyphens of numbers and phone numbers. */
const NUMBER_OR_PHONE = /^[+-]?[0-9 ().,/-]*[0-9][0-9 ().,/-]*$/;

/** Whether `value` would be evaluated as a formula by a spreadsheet that opens it from a CSV file. */
export function isFormulaLike(value: string): boolean {
  return FORMULA_START.test(value) && !NUMBER_OR_PHONE.test(value);
}

/** `value`, or `'value` when a spreadsheet would run it as a formula. */
export function guardFormula(value: string): string {
  return isFormulaLike(value) ? "'" + value : value;
}

export function guardRow(cells: readonly string[]): string[] {
  return cells.map((c) => guardFormula(c ?? ''));
}
