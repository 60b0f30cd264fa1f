// CLI entry (bundled to dist/sandbox.js): starts the sandbox (with --companies, the multi-company front
// server) and stops it when lifecycle.ts says the process ends.
import { parseCli, USAGE } from './cli';
import { startCompaniesSandbox } from './companies';
import { stopWhenAsked } from './lifecycle';
import { startSandbox } from './server';

async function main(): Promise<void> {
  let options;
  try {
    options = parseCli(process.argv.slice(2), process.env);
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (options.help) {
    console.log(USAGE);
    return;
  }
  const { json, help: _help, companies: count = 1, ...sandboxOptions } = options;
  const started = Date.now();
  const multi = count > 1 ? await startCompaniesSandbox({ ...sandboxOptions, companies: count }) : undefined;
  const sandbox = multi ?? (await startSandbox(sandboxOptions));
  const companies = multi?.companies;
  if (json) {
    // `keys` is the first company's (what the extension's launcher reads); `companies` lists all.
    const listening = { event: 'listening', url: sandbox.url, keys: sandbox.keys, ...(companies && { companies }) };
    process.stdout.write(JSON.stringify(listening) + '\n');
  } else {
    const what = companies ? ` (${count} companies)` : '';
    console.log(`Nilvera sandbox${what} listening on ${sandbox.url} (ready in ${Date.now() - started} ms)`);
    console.log(`  API base URL:    ${sandbox.url}/general`);
    for (const c of companies ?? []) console.log(`  ${c.taxNumber}  ${c.name}\n    full key:      ${c.key}\n    read-only key: ${c.restrictedKey}`);
    if (!companies) {
      console.log(`  full key:        ${sandbox.keys.full}`);
      console.log(`  read-only key:   ${sandbox.keys.restricted}`);
      console.log(`  control:         ${sandbox.url}/__sandbox/state`);
      const b = options.behaviour;
      if (b) console.log(`  behaviour:       profile ${b.profile ?? 'default'}${b.quirks ? `, quirks ${Object.entries(b.quirks).map(([k, v]) => `${k}=${v}`).join(' ')}` : ''}`);
    }
    console.log('Press Ctrl-C to stop.');
  }
  stopWhenAsked(sandbox);
}

main().catch((e) => {
  console.error(`sandbox failed to start: ${(e as Error).message}`);
  process.exit(1);
});
