// CLI entry (bundled to dist/sandbox.js): starts the sandbox and stops it on Ctrl-C / SIGTERM, or on
// the extension's shutdown message and when the extension's process goes (lifecycle.ts).
import { parseCli, USAGE } from './cli';
import { serveCompanies } from './companiesMain';
import { stopWhenAsked } from './lifecycle';
import { startSandbox } from './server';

async function main(): Promise<void> {
  let options;
  try {
    options = parseCli(process.argv.slice(2));
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (options.help) {
    console.log(USAGE);
    return;
  }
  const { json, help: _help, companies: companyCount, ...sandboxOptions } = options;
  const started = Date.now();
  if (companyCount && companyCount > 1) return serveCompanies(companyCount, sandboxOptions, json);
  const sandbox = await startSandbox(sandboxOptions);
  if (json) {
    process.stdout.write(JSON.stringify({ event: 'listening', url: sandbox.url, keys: sandbox.keys }) + '\n');
  } else {
    console.log(`Nilvera sandbox listening on ${sandbox.url} (ready in ${Date.now() - started} ms)`);
    console.log(`  API base URL:    ${sandbox.url}/general`);
    console.log(`  full key:        ${sandbox.keys.full}`);
    console.log(`  read-only key:   ${sandbox.keys.restricted}`);
    console.log(`  control:         ${sandbox.url}/__sandbox/state`);
    const b = options.behaviour;
    if (b) console.log(`  behaviour:       profile ${b.profile ?? 'default'}${b.quirks ? `, quirks ${Object.entries(b.quirks).map(([k, v]) => `${k}=${v}`).join(' ')}` : ''}`);
    console.log('Press Ctrl-C to stop.');
  }
  stopWhenAsked(sandbox);
}

main().catch((e) => {
  console.error(`sandbox failed to start: ${(e as Error).message}`);
  process.exit(1);
});
