// Command-line options of `node dist/sandbox.js`.
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

/** The options of `argv`; the key may come from the environment instead (SANDBOX_KEY_ENV). */
export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv = {}): CliOptions {
  const out: CliOptions = { json: false, help: false };
  if (env[SANDBOX_KEY_ENV]) out.key = env[SANDBOX_KEY_ENV];
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].includes('=') ? argv[i].split(/=(.*)/s, 2) : [argv[i], undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--port': out.port = numberArg(flag, value(), 0, 65535); break;
      case '--host': out.host = value(); break;
      case '--key': out.key = value(); break;
      case '--customers': out.customers = numberArg(flag, value(), 0, 5_000_000); break;
      case '--invalid-customers': out.invalidCustomers = numberArg(flag, value(), 0, 100_000); break;
      case '--registry': out.registry = numberArg(flag, value(), 0, 20_000_000); break;
      case '--keep-lists': out.keepLists = true; break;
      case '--seed': out.seed = numberArg(flag, value(), 0, 2 ** 31 - 1); break;
      case '--data': out.dataFile = value(); break;
      case '--data-dir': out.dataDir = value(); break;
      case '--latency': out.faults = { ...out.faults, latencyMs: numberArg(flag, value(), 0, 600_000) }; break;
      case '--fail-rate': {
        const r = numberArg(flag, value(), 0, 1, false);
        out.faults = { ...out.faults, rates: { '500': r / 2, '503': r / 2 } };
        break;
      }
      case '--fault-phase': out.faults = { ...out.faults, phase: oneOf(flag, value(), FAULT_PHASES) }; break;
      case '--profile': out.behaviour = { ...out.behaviour, profile: oneOf(flag, value(), PROFILES) }; break;
      case '--quirk': {
        const text = value();
        if (!text) throw new Error('--quirk needs point[=answer]');
        let parsed;
        try {
          parsed = parseQuirk(text);
        } catch (e) {
          throw new Error(`--quirk: ${(e as Error).message}`, { cause: e });
        }
        out.behaviour = { ...out.behaviour, quirks: { ...out.behaviour?.quirks, [parsed[0]]: parsed[1] } };
        break;
      }
      case '--companies': out.companies = numberArg(flag, value(), 1, 50); break;
      case '--json': out.json = true; break;
      case '--help': case '-h': out.help = true; break;
      default: throw new Error(`unknown option ${argv[i]}`);
    }
  }
  if (out.key !== undefined && !out.key) throw new Error('--key needs a value');
  return out;
}
