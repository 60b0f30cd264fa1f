// The entry of dist/validate.js (`npm run validate`); the command itself is src/gib/cli.ts.

import { main } from './cli';

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`${(e as Error)?.stack ?? e}\n`);
    process.exitCode = 2;
  },
);
