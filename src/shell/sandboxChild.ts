// How the sandbox child process is started: its arguments and environment. The key goes in the
// environment (SANDBOX_KEY_ENV), never on the command line, which every local user can read
// (`ps`, /proc/<pid>/cmdline); a process's environment is readable by its own user only.
import { SANDBOX_KEY_ENV } from '../constants';

export function sandboxChildLaunch(key: string, dataDir: string | undefined, parentEnv: NodeJS.ProcessEnv): { args: string[]; env: NodeJS.ProcessEnv } {
  const args = ['--json', '--port', '0', '--host', '127.0.0.1'];
  if (dataDir) args.push('--data-dir', dataDir);
  // The extension host is Electron: ELECTRON_RUN_AS_NODE makes the child a plain Node process.
  return { args, env: { ...parentEnv, ELECTRON_RUN_AS_NODE: '1', [SANDBOX_KEY_ENV]: key } };
}
