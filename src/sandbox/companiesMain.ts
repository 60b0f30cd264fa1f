// `--companies N`: prints each company's key and serves until stopped (lifecycle.ts).
import { startCompaniesSandbox } from './companies';
import { stopWhenAsked } from './lifecycle';
import type { SandboxOptions } from './types';

export async function serveCompanies(count: number, options: SandboxOptions, json: boolean): Promise<void> {
  const started = Date.now();
  const sandbox = await startCompaniesSandbox({ ...options, companies: count });
  if (json) {
    // `keys` is the first company's (what the extension's launcher reads); `companies` lists all.
    process.stdout.write(JSON.stringify({ event: 'listening', url: sandbox.url, keys: sandbox.keys, companies: sandbox.companies }) + '\n');
  } else {
    console.log(`Nilvera sandbox (${count} companies) listening on ${sandbox.url} (ready in ${Date.now() - started} ms)`);
    console.log(`  API base URL:    ${sandbox.url}/general`);
    for (const c of sandbox.companies) console.log(`  ${c.taxNumber}  ${c.name}\n    full key:      ${c.key}\n    read-only key: ${c.restrictedKey}`);
    console.log('Press Ctrl-C to stop.');
  }
  stopWhenAsked(sandbox);
}
