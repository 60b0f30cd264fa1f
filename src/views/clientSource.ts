// How the trees and commands reach the API: the shell's client of the active environment.
import type { NilveraClient } from '../api';
import type { ShellServices } from '../shell/services';

export type ClientSource = () => Promise<NilveraClient>;

/**
 * The shell types its client as the small slice it uses itself (apiContract.ts); the object it
 * creates is src/api's full client (createShellClient), which is what the views need.
 */
export function shellClientSource(shell: ShellServices): ClientSource {
  return async () => (await shell.client()) as unknown as NilveraClient;
}
