// Ends this process at one step of a file operation, as a crash, a power cut or a killed window ends
// it: SIGKILL, so no cleanup code, 'exit' handler or finally block runs. The step is the first call of
// a node:fs operation whose path matches, just before it runs or just after it has run; or the
// middle of a write to a matching file (half the bytes written, then the kill). It patches node:fs in
// this process (the module object, as test/support/windowsFileLocks.ts does).
import type * as FsModule from 'node:fs';
import * as os from 'node:os';

const fs = process.getBuiltinModule('node:fs') as typeof FsModule;

export type KillOperation = 'open' | 'rename' | 'rm' | 'writeFile' | 'link';

export interface KillPoint {
  /** The operation of fs.promises, or 'halfWrite': a FileHandle.writeFile to a file opened at a matching path. */
  op: KillOperation | 'halfWrite';
  /** Matched against the operation's path arguments joined by ' -> ' (rename: from -> to). */
  path: RegExp;
  when: 'before' | 'after';
}

export function killNow(): never {
  process.kill(process.pid, 'SIGKILL');
  // SIGKILL ends the process before this line; keep the type checker and any late microtask quiet.
  throw new Error('killed');
}

/** Arms one kill point for the rest of this process's life. */
export async function armKillPoint(point: KillPoint): Promise<void> {
  const p = fs.promises as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const matches = (args: unknown[], count: number) =>
    point.path.test(
      args
        .slice(0, count)
        .map((a) => String(a))
        .join(' -> '),
    );
  if (point.op === 'halfWrite') {
    // FileHandle's class is not exported: its prototype comes from a handle.
    const probe = await fs.promises.open(os.devNull, 'r');
    const proto = Object.getPrototypeOf(probe) as { writeFile: (data: string | Uint8Array, ...rest: unknown[]) => Promise<void> };
    await probe.close();
    const opened = new WeakSet<object>();
    const open = p.open;
    p.open = async (...args: unknown[]) => {
      const handle = (await open(...args)) as object;
      if (matches(args, 1)) opened.add(handle);
      return handle;
    };
    const writeFile = proto.writeFile;
    proto.writeFile = async function (this: object, data: string | Uint8Array, ...rest: unknown[]) {
      if (!opened.has(this)) return writeFile.call(this, data, ...rest);
      const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data);
      await writeFile.call(this, bytes.subarray(0, Math.floor(bytes.length / 2)), ...rest);
      killNow();
    };
    return;
  }
  const original = p[point.op];
  const pathArgs = point.op === 'rename' || point.op === 'link' ? 2 : 1;
  p[point.op] = async (...args: unknown[]) => {
    const hit = matches(args, pathArgs);
    if (hit && point.when === 'before') killNow();
    const result = await original(...args);
    if (hit) killNow();
    return result;
  };
}
