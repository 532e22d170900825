/**
 * Which Codex started the hook: the `codex` binary among the process's ancestors and the package file beside
 * it. With the real `/proc`: a copy of `/bin/sh` named `codex` in a release-shaped folder starts node through a
 * shell, as Codex starts its hooks. With a fake `/proc`: every way the lookup must answer "unknown".
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { buildSync } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codexVersionFromProcess, type ProcReader } from "../../../src/cli/hooks/codexVersion";
import { tempTree } from "../../support/workspace";

const t = tempTree({ "keep.txt": "" });
afterAll(() => t.cleanup());

const SRC = path.resolve(__dirname, "..", "..", "..", "src", "cli", "hooks", "codexVersion.ts");
/** The module as plain CommonJS, for a node that Codex's stand-in starts. */
let bundled = "";
beforeAll(() => {
  bundled = t.path("codexVersion.cjs");
  buildSync({ entryPoints: [SRC], outfile: bundled, bundle: true, platform: "node", format: "cjs", logLevel: "error" });
});

/** A release-shaped folder: `bin/codex` (a copy of sh) and `codex-package.json` naming `entry` as its entrypoint. */
function release(name: string, pkg: Record<string, unknown>): string {
  const root = t.path(name);
  mkdirSync(path.join(root, "bin"), { recursive: true });
  const exe = path.join(root, "bin", "codex");
  copyFileSync("/bin/sh", exe);
  chmodSync(exe, 0o755);
  writeFileSync(path.join(root, "codex-package.json"), JSON.stringify(pkg));
  return exe;
}

/** What codexVersionFromProcess says in a node started by `codex -c '…'` (through a shell that stays). */
function underCodex(exe: string, extraShell = false): string {
  const script = `process.stdout.write(String(require(${JSON.stringify(bundled)}).codexVersionFromProcess()))`;
  const node = `${process.execPath} -e '${script}'`;
  const inner = extraShell ? `/bin/sh -c "${node.replaceAll('"', '\\"')}; true"` : node;
  const r = spawnSync(exe, ["-c", `${inner}; true`], { encoding: "utf8" });
  expect(r.stderr).toBe("");
  return r.stdout;
}

describe.skipIf(process.platform !== "linux")("with the real /proc", () => {
  it("reads the version of the codex binary that started the hook, through one or two shells", () => {
    const exe = release("good", { layoutVersion: 1, version: "0.171.0", entrypoint: "bin/codex" });
    expect(underCodex(exe)).toBe("0.171.0");
    expect(underCodex(exe, true)).toBe("0.171.0");
  });

  it("is unknown when the package file names another entrypoint, or the binary is not called codex", () => {
    const other = release("other", { version: "0.171.0", entrypoint: "bin/codex-other" });
    expect(underCodex(other)).toBe("undefined");
    const renamed = release("renamed", { version: "0.171.0", entrypoint: "bin/codex" });
    const sh = path.join(path.dirname(renamed), "sh");
    copyFileSync(renamed, sh);
    chmodSync(sh, 0o755);
    expect(underCodex(sh)).toBe("undefined");
  });

  it("is unknown in a process Codex did not start (this test)", () => {
    expect(codexVersionFromProcess()).toBeUndefined();
  });
});

describe("with a fake /proc", () => {
  /** Processes by pid: [parent, exe]; files by path. */
  function fake(procs: Record<number, [number, string]>, files: Record<string, string>): ProcReader {
    return {
      stat: (pid) => {
        const p = procs[pid];
        if (!p) throw new Error("ENOENT");
        return `${pid} (a name) with) spaces) S ${p[0]} 1 1 0`;
      },
      exe: (pid) => {
        const p = procs[pid];
        if (!p) throw new Error("ENOENT");
        return p[1];
      },
      file: (f) => {
        if (!(f in files)) throw new Error("ENOENT");
        return files[f]!;
      },
    };
  }
  const pkg = (v: unknown) => ({ "/r/codex-package.json": JSON.stringify({ version: v, entrypoint: "bin/codex" }) });

  it("walks up past the wrapper, timeout and shell to codex", () => {
    const procs: Record<number, [number, string]> = {
      10: [9, "/usr/bin/node"],
      9: [8, "/usr/bin/timeout"],
      8: [7, "/bin/dash"],
      7: [6, "/bin/bash"],
      6: [1, "/r/bin/codex"],
    };
    expect(codexVersionFromProcess(10, fake(procs, pkg("0.171.0")))).toBe("0.171.0");
  });

  it("is unknown: a malformed version, a replaced binary, no codex, an unreadable ancestor, too deep", () => {
    const chain = (exe: string): Record<number, [number, string]> => ({ 3: [2, "/bin/sh"], 2: [1, exe] });
    expect(codexVersionFromProcess(3, fake(chain("/r/bin/codex"), pkg("0.171")))).toBeUndefined();
    expect(codexVersionFromProcess(3, fake(chain("/r/bin/codex"), pkg(171)))).toBeUndefined();
    expect(codexVersionFromProcess(3, fake(chain("/r/bin/codex (deleted)"), pkg("0.171.0")))).toBeUndefined();
    expect(codexVersionFromProcess(3, fake(chain("/usr/bin/claude"), pkg("0.171.0")))).toBeUndefined();
    expect(codexVersionFromProcess(3, fake({ 3: [2, "/bin/sh"] }, pkg("0.171.0")))).toBeUndefined();
    const deep: Record<number, [number, string]> = { 1: [0, "/r/bin/codex"] };
    for (let pid = 2; pid <= 12; pid++) deep[pid] = [pid - 1, "/bin/sh"];
    expect(codexVersionFromProcess(12, fake(deep, pkg("0.171.0")))).toBeUndefined();
    expect(codexVersionFromProcess(4, fake(deep, pkg("0.171.0")))).toBe("0.171.0");
  });
});
