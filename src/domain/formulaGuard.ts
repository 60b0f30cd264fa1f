// Text that a spreadsheet would run as a formula when it opens a CSV file: a cell starting with `=`,
// `+`, `-` or `@` (and, for some programs, a tab or a carriage return before one) is evaluated, so a
// name or a server's error text such as `=HYPERLINK("https://…?"&A1;"click")` would act in the user's
// Excel. Every CSV the extension writes passes its cells through `guardFormula`: such a cell gets a
// leading apostrophe, which Excel and LibreOffice show as text (OWASP's advice for CSV injection).
//
// A value made only of digits and the punctuation of numbers and phone numbers (`+90 (532) 123 45 67`,
// `-12,50`) is left as it is: it can neither call a function nor refer to a cell, and a phone number
// that gained an apostrophe would no longer read as one. Workbooks (.xlsx) need no guard: their text
// cells are never evaluated.

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

/** Every cell of a row through `guardFormula`. */
export function guardRow(cells: readonly string[]): string[] {
  return cells.map((c) => guardFormula(c ?? ''));
}
