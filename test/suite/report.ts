// Output of the extension-host suite. The host's console goes to the workbench's log (and VS Code
// does not let a test replace console.log), so lines also go to the file the runner names in
// NILVERA_SUITE_REPORT; the runner prints that file when the suite ends.
import * as fs from 'node:fs';
import { format } from 'node:util';

export function suiteLog(...args: unknown[]): void {
  console.log(...args);
  const file = process.env.NILVERA_SUITE_REPORT;
  if (file) fs.appendFileSync(file, format(...args) + '\n');
}
