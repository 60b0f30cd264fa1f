// A file-system fault layer that behaves as Windows does when another program (Excel, antivirus, the
// search indexer, another VS Code window) has a file open: renaming it or onto it, deleting it, and
// opening it for writing fail with EBUSY or EPERM until the holder lets go. A hold can last until
// released or clear by itself after some milliseconds (a transient lock). It patches node:fs in this
// process, so in the extension-host suite it also acts on the extension's own file operations.
import type * as FsModule from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// The module object itself: a bundle's `import * as fs` is a copy whose properties cannot be set, while
// every bundle (the extension's too) reads the module's properties through to this object.
const fs = process.getBuiltinModule('node:fs') as typeof FsModule;

type LockCode = 'EBUSY' | 'EPERM';

interface Hold {
  code: LockCode;
  /** Date.now() after which the hold has cleared by itself; Infinity until released. */
  until: number;
  /** Also refuse opening for reading (Excel opens a CSV exclusively). */
  blocksReading: boolean;
  /** Refusals so far: tests assert that the lock really struck. */
  refusals: number;
}

export interface HoldOptions {
  code?: LockCode;
  /** Clears by itself after this many ms (a transient lock); held until released otherwise. */
  forMs?: number;
  blocksReading?: boolean;
}

function lockError(code: LockCode, syscall: string, file: string): NodeJS.ErrnoException {
  const e = new Error(`${code}: resource busy or locked, ${syscall} '${file}'`) as NodeJS.ErrnoException;
  e.code = code;
  e.syscall = syscall;
  e.path = file;
  e.errno = code === 'EBUSY' ? -4082 : -4048;
  return e;
}

const isWriteFlag = (flags: unknown) => flags !== undefined && flags !== 'r' && flags !== fs.constants.O_RDONLY;

export class WindowsFileLocks {
  private readonly holds = new Map<string, Hold>();
  private readonly restore: Array<() => void> = [];

  /** Another program opens `file` (or everything under a folder). */
  hold(file: string, options: HoldOptions = {}): void {
    this.holds.set(path.resolve(file), {
      code: options.code ?? 'EBUSY',
      until: options.forMs === undefined ? Infinity : Date.now() + options.forMs,
      blocksReading: options.blocksReading ?? false,
      refusals: 0,
    });
  }

  release(file: string): void {
    this.holds.delete(path.resolve(file));
  }

  /** How many operations the hold on `file` refused. */
  refusals(file: string): number {
    return this.holds.get(path.resolve(file))?.refusals ?? 0;
  }

  totalRefusals(): number {
    let n = 0;
    for (const h of this.holds.values()) n += h.refusals;
    return n;
  }

  /** The hold that covers `file` (itself or a folder above it) and is still in force. */
  private holdOn(file: unknown, reading: boolean): Hold | undefined {
    if (typeof file !== 'string' && !(file instanceof URL) && !Buffer.isBuffer(file)) return undefined;
    const p = path.resolve(file instanceof URL ? file.pathname : String(file));
    for (const [held, hold] of this.holds) {
      if (p !== held && !p.startsWith(held + path.sep)) continue;
      if (Date.now() >= hold.until) continue;
      if (reading && !hold.blocksReading) continue;
      return hold;
    }
    return undefined;
  }

  private check(syscall: string, file: unknown, reading = false): void {
    const hold = this.holdOn(file, reading);
    if (hold) {
      hold.refusals++;
      throw lockError(hold.code, syscall, String(file));
    }
  }

  private patch<O extends object, K extends keyof O>(owner: O, key: K, wrap: (original: O[K]) => O[K]): void {
    const original = owner[key];
    (owner as Record<K, O[K]>)[key] = wrap(original);
    this.restore.push(() => ((owner as Record<K, O[K]>)[key] = original));
  }

  install(): this {
    type Fn = (...args: never[]) => unknown;
    const asyncGuard = <F extends Fn>(syscall: string, files: (args: Parameters<F>) => Array<[unknown, boolean]>) => (original: F) =>
      (async (...args: Parameters<F>) => {
        for (const [f, reading] of files(args)) this.check(syscall, f, reading);
        return (original as Fn)(...args);
      }) as unknown as F;
    const syncGuard = <F extends Fn>(syscall: string, files: (args: Parameters<F>) => Array<[unknown, boolean]>) => (original: F) =>
      ((...args: Parameters<F>) => {
        for (const [f, reading] of files(args)) this.check(syscall, f, reading);
        return (original as Fn)(...args);
      }) as unknown as F;
    const p = fs.promises;
    this.patch(p, 'rename', asyncGuard('rename', ([from, to]) => [[from, false], [to, false]]));
    this.patch(p, 'rm', asyncGuard('rm', ([f]) => [[f, false]]));
    this.patch(p, 'unlink', asyncGuard('unlink', ([f]) => [[f, false]]));
    this.patch(p, 'rmdir', asyncGuard('rmdir', ([f]) => [[f, false]]));
    this.patch(p, 'open', asyncGuard('open', ([f, flags]) => [[f, !isWriteFlag(flags)]]));
    this.patch(p, 'writeFile', asyncGuard('open', ([f]) => [[f, false]]));
    this.patch(p, 'appendFile', asyncGuard('open', ([f]) => [[f, false]]));
    this.patch(p, 'readFile', asyncGuard('open', ([f]) => [[f, true]]));
    this.patch(p, 'copyFile', asyncGuard('copyfile', ([from, to]) => [[from, true], [to, false]]));
    this.patch(fs, 'renameSync', syncGuard('rename', ([from, to]) => [[from, false], [to, false]]));
    this.patch(fs, 'rmSync', syncGuard('rm', ([f]) => [[f, false]]));
    this.patch(fs, 'unlinkSync', syncGuard('unlink', ([f]) => [[f, false]]));
    this.patch(fs, 'openSync', syncGuard('open', ([f, flags]) => [[f, !isWriteFlag(flags)]]));
    this.patch(fs, 'writeFileSync', syncGuard('open', ([f]) => [[f, false]]));
    this.patch(fs, 'readFileSync', syncGuard('open', ([f]) => [[f, true]]));
    // The callback forms, which libraries still call (write-file-atomic renames through promisify(fs.rename)).
    const callbackGuard = <F extends Fn>(syscall: string, files: (args: Parameters<F>) => Array<[unknown, boolean]>) => (original: F) =>
      ((...args: Parameters<F>) => {
        const callback = args[args.length - 1] as unknown;
        try {
          for (const [f, reading] of files(args)) this.check(syscall, f, reading);
        } catch (error) {
          if (typeof callback === 'function') return void process.nextTick(() => (callback as (e: unknown) => void)(error));
          throw error;
        }
        return (original as Fn)(...args);
      }) as unknown as F;
    this.patch(fs, 'rename', callbackGuard('rename', ([from, to]) => [[from, false], [to, false]]));
    this.patch(fs, 'unlink', callbackGuard('unlink', ([f]) => [[f, false]]));
    this.patch(fs, 'open', callbackGuard('open', ([f, flags]) => [[f, typeof flags === 'function' || !isWriteFlag(flags)]]));
    // Streams open their file asynchronously and report a refusal as an 'error' event, as Node does.
    this.patch(fs, 'createWriteStream', (original) =>
      ((file: FsModule.PathLike, options?: unknown) => {
        const hold = this.holdOn(file, false);
        if (!hold) return (original as (f: FsModule.PathLike, o?: unknown) => FsModule.WriteStream)(file, options);
        hold.refusals++;
        const stream = (original as (f: FsModule.PathLike, o?: unknown) => FsModule.WriteStream)(os.devNull, options);
        stream.destroy(lockError(hold.code, 'open', String(file)));
        return stream;
      }) as typeof FsModule.createWriteStream,
    );
    return this;
  }

  uninstall(): void {
    while (this.restore.length) this.restore.pop()?.();
    this.holds.clear();
  }
}
