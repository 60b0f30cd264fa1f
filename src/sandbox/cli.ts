// Command-line options of `node dist/sandbox.js`, read by node:util's `parseArgs`; the values are then
// checked here (ranges, allowed words) so that a bad argument gets a message naming the option and what it takes.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parseQuirk, PROFILES } from './behaviour';
import { FAULT_PHASES } from './faults';
import type { SandboxOptions } from './types';
import { SANDBOX_KEY_ENV } from '../constants';

export const USAGE = `Usage: node dist/sandbox.js [options]
  --port N          port to listen on (default 0: a free port)
  --host H          address to bind (default 127.0.0.1)
  --key K           the full-permission API key (default: $NILVERA_SANDBOX_SERVER_KEY, else random;
                    prefer the variable: a command line is visible to every local user)
  --customers N     seed customers (default 300)
  --invalid-customers N  extra legacy customers with bad tax-number checksums (default 0)
  --registry N      registry taxpayers (default 5000, up to 20,000,000)
  --keep-lists      build each registry list's ZIP once, serve it from memory until the registry changes
  --seed S          seed of the generated data (default 1)
  --data FILE       keep changes in this JSON file across restarts
  --data-dir DIR    keep changes in DIR/sandbox-N.json, the first N no other running sandbox holds
  --latency MS      add this latency to every API request
  --fail-rate R     share (0..1) of API requests answered 500/503
  --fault-phase P   before (default) | after (the change is stored, then the answer is lost) | either
                    | late (the answer is lost, the change stored after the next request)
  --profile P       default | alternate: answers to the points the spec leaves open
  --quirk Q         point=answer, or point alone for its alternate answer (repeatable);
                    the points and answers: src/sandbox/behaviour.ts
  --companies N     serve N companies, one key each (default 1; see companies.ts)
  --json            print one JSON line {"event":"listening",...} when ready
  --help            show this help`;

export interface CliOptions extends SandboxOptions {
  /** More than one: the multi-company front server (companies.ts). */
  companies?: number;
  json: boolean;
  help: boolean;
}

function oneOf<T extends string>(flag: string, text: string | undefined, allowed: readonly T[]): T {
  if (!allowed.includes(text as T)) throw new Error(`${flag} needs one of: ${allowed.join(', ')}`);
  return text as T;
}

function numberArg(name: string, text: string | undefined, min: number, max: number, integer = true): number {
  const n = Number(text);
  if (text === undefined || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    throw new Error(`${name} needs a number between ${min} and ${max}`);
  }
  return n;
}

/** What each option takes, for `parseArgs`, and what to say when its value is missing. */
const OPTIONS = {
  port: { type: 'string', needs: 'a number between 0 and 65535' },
  host: { type: 'string', needs: 'an address' },
  key: { type: 'string', needs: 'a value' },
  customers: { type: 'string', needs: 'a number between 0 and 5000000' },
  'invalid-customers': { type: 'string', needs: 'a number between 0 and 100000' },
  registry: { type: 'string', needs: 'a number between 0 and 20000000' },
  'keep-lists': { type: 'boolean' },
  seed: { type: 'string', needs: 'a number between 0 and 2147483647' },
  data: { type: 'string', needs: 'a file name' },
  'data-dir': { type: 'string', needs: 'a folder' },
  latency: { type: 'string', needs: 'a number between 0 and 600000' },
  'fail-rate': { type: 'string', needs: 'a number between 0 and 1' },
  'fault-phase': { type: 'string', needs: `one of: ${FAULT_PHASES.join(', ')}` },
  profile: { type: 'string', needs: `one of: ${PROFILES.join(', ')}` },
  quirk: { type: 'string', multiple: true, needs: 'point[=answer]' },
  companies: { type: 'string', needs: 'a number between 1 and 50' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Record<string, NonNullable<ParseArgsConfig['options']>[string] & { needs?: string }>;

/** `parseArgs`'s own errors, worded as ours: which option, and what it needs. */
function explain(error: unknown, argv: readonly string[]): Error {
  const code = (error as { code?: string }).code;
  const message = (error as Error).message;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    // "Option '--port <value>' argument missing" or "… argument is ambiguous" (the next word is an option).
    const name = /'--([\w-]+)/.exec(message)?.[1] as keyof typeof OPTIONS | undefined;
    const needs = name && 'needs' in OPTIONS[name] ? OPTIONS[name].needs : undefined;
    if (name && needs) return new Error(`--${name} needs ${needs}`, { cause: error });
    if (name) return new Error(`--${name} takes no value`, { cause: error });
  }
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const word = /'([^']+)'/.exec(message)?.[1] ?? argv.find((a) => !a.startsWith('--')) ?? '';
    return new Error(`unknown option ${word}`, { cause: error });
  }
  return error as Error;
}

/** The options of `argv`; the key may come from the environment instead (SANDBOX_KEY_ENV). */
export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv = {}): CliOptions {
  const { values } = (() => {
    try {
      return parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false });
    } catch (error) {
      throw explain(error, argv);
    }
  })();
  const out: CliOptions = { json: values.json ?? false, help: values.help ?? false };
  const key = values.key ?? env[SANDBOX_KEY_ENV];
  if (key !== undefined) out.key = key;
  if (values.port !== undefined) out.port = numberArg('--port', values.port, 0, 65535);
  if (values.host !== undefined) out.host = values.host;
  if (values.customers !== undefined) out.customers = numberArg('--customers', values.customers, 0, 5_000_000);
  if (values['invalid-customers'] !== undefined) out.invalidCustomers = numberArg('--invalid-customers', values['invalid-customers'], 0, 100_000);
  if (values.registry !== undefined) out.registry = numberArg('--registry', values.registry, 0, 20_000_000);
  if (values['keep-lists']) out.keepLists = true;
  if (values.seed !== undefined) out.seed = numberArg('--seed', values.seed, 0, 2 ** 31 - 1);
  if (values.data !== undefined) out.dataFile = values.data;
  if (values['data-dir'] !== undefined) out.dataDir = values['data-dir'];
  if (values.latency !== undefined) out.faults = { ...out.faults, latencyMs: numberArg('--latency', values.latency, 0, 600_000) };
  if (values['fail-rate'] !== undefined) {
    const r = numberArg('--fail-rate', values['fail-rate'], 0, 1, false);
    out.faults = { ...out.faults, rates: { '500': r / 2, '503': r / 2 } };
  }
  if (values['fault-phase'] !== undefined) out.faults = { ...out.faults, phase: oneOf('--fault-phase', values['fault-phase'], FAULT_PHASES) };
  if (values.profile !== undefined) out.behaviour = { ...out.behaviour, profile: oneOf('--profile', values.profile, PROFILES) };
  for (const text of values.quirk ?? []) {
    if (!text) throw new Error('--quirk needs point[=answer]');
    let parsed;
    try {
      parsed = parseQuirk(text);
    } catch (e) {
      throw new Error(`--quirk: ${(e as Error).message}`, { cause: e });
    }
    out.behaviour = { ...out.behaviour, quirks: { ...out.behaviour?.quirks, [parsed[0]]: parsed[1] } };
  }
  if (values.companies !== undefined) out.companies = numberArg('--companies', values.companies, 1, 50);
  if (out.key !== undefined && !out.key) throw new Error('--key needs a value');
  return out;
}
