/**
 * Which agent binary started the hook: the nearest ancestor with the agent's name and the package file beside
 * it (Codex's `codex-package.json`, Cline's package.json). With the real `/proc`: a copy of `/bin/sh` laid out
 * like each agent's package starts node through a shell, as the agents start their hooks. With a fake `/proc`:
 * every way the lookup must answer "unknown".
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { buildSync } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { versionFromAncestors, type ProcReader } from "../../../src/cli/hooks/agentProcess";
import { CLINE_BINARY } from "../../../src/cli/hooks/cline";
import { CODEX_BINARY } from "../../../src/cli/hooks/codex";
import { tempTree } from "../../support/workspace";

const t = tempTree({ "keep.txt": "" });
afterAll(() => t.cleanup());

const HOOKS = path.resolve(__dirname, "..", "..", "..", "src", "cli", "hooks");
/** What each agent's hook would read, as plain CommonJS for a node that the stand-in binary starts. */
let bundled = "";
beforeAll(() => {
  const entry = t.path("entry.ts");
  writeFileSync(
    entry,
    [
      `import { versionFromAncestors } from ${JSON.stringify(path.join(HOOKS, "agentProcess"))};`,
      `import { CODEX_BINARY } from ${JSON.stringify(path.join(HOOKS, "codex"))};`,
      `import { CLINE_BINARY } from ${JSON.stringify(path.join(HOOKS, "cline"))};`,
      `const b = process.argv[2] === "cline" ? CLINE_BINARY : CODEX_BINARY;`,
      `process.stdout.write(String(versionFromAncestors(b)));`,
    ].join("\n"),
  );
  bundled = t.path("entry.cjs");
  buildSync({
    entryPoints: [entry],
    outfile: bundled,
    bundle: true,
    platform: "node",
    format: "cjs",
    logLevel: "error",
  });
});

/** A package-shaped folder: `bin/<name>` (a copy of sh) and the package file `file` beside `bin/`. */
function layout(dir: string, name: string, file: string, pkg: Record<string, unknown>): string {
  const root = t.path(dir);
  mkdirSync(path.join(root, "bin"), { recursive: true });
  const exe = path.join(root, "bin", name);
  copyFileSync("/bin/sh", exe);
  chmodSync(exe, 0o755);
  writeFileSync(path.join(root, file), JSON.stringify(pkg));
  return exe;
}

/** What the hook reads in a node started by `exe -c '…'` (through a shell that stays, or two). */
function underAgent(exe: string, agent: "codex" | "cline", extraShell = false): string {
  const node = `${process.execPath} ${bundled} ${agent}`;
  const inner = extraShell ? `/bin/sh -c "${node}; true"` : node;
  const r = spawnSync(exe, ["-c", `${inner}; true`], { encoding: "utf8" });
  expect(r.stderr).toBe("");
  return r.stdout;
}

describe.skipIf(process.platform !== "linux")("with the real /proc", () => {
  it("Codex: the version of the codex binary that started the hook, through one or two shells", () => {
    const exe = layout("codex", "codex", "codex-package.json", {
      layoutVersion: 1,
      version: "0.171.0",
      entrypoint: "bin/codex",
    });
    expect(underAgent(exe, "codex")).toBe("0.171.0");
    expect(underAgent(exe, "codex", true)).toBe("0.171.0");
    // Cline's lookup does not take Codex's binary for its own.
    expect(underAgent(exe, "cline")).toBe("undefined");
  });

  it("Cline: the version of the cline binary (its npm platform package)", () => {
    const exe = layout("cline", "cline", "package.json", {
      name: "@cline/cli-linux-x64",
      version: "3.0.65",
      bin: { cline: "bin/cline" },
    });
    expect(underAgent(exe, "cline")).toBe("3.0.65");
    expect(underAgent(exe, "cline", true)).toBe("3.0.65");
  });

  it("unknown: a package file naming another entrypoint or package, a binary of another name", () => {
    const other = layout("codex-other", "codex", "codex-package.json", { version: "0.171.0", entrypoint: "bin/x" });
    expect(underAgent(other, "codex")).toBe("undefined");
    const notCline = layout("not-cline", "cline", "package.json", {
      name: "cline-lookalike",
      version: "3.0.65",
      bin: { cline: "bin/cline" },
    });
    expect(underAgent(notCline, "cline")).toBe("undefined");
    const good = layout("renamed", "codex", "codex-package.json", { version: "0.171.0", entrypoint: "bin/codex" });
    const sh = path.join(path.dirname(good), "sh");
    copyFileSync(good, sh);
    chmodSync(sh, 0o755);
    expect(underAgent(sh, "codex")).toBe("undefined");
  });

  it("unknown in a process no agent started (this test)", () => {
    expect(versionFromAncestors(CODEX_BINARY)).toBeUndefined();
    expect(versionFromAncestors(CLINE_BINARY)).toBeUndefined();
  });
});

describe("with a fake /proc", () => {
  /** Processes by pid: [parent, exe]; files by path. */
  function fake(procs: Record<number, [number, string]>, files: Record<string, string>): ProcReader {
    return {
      stat: (pid: number) => {
        const p = procs[pid];
        if (!p) throw new Error("ENOENT");
        return `${pid} (a name) with) spaces) S ${p[0]} 1 1 0`;
      },
      exe: (pid: number) => {
        const p = procs[pid];
        if (!p) throw new Error("ENOENT");
        return p[1];
      },
      file: (f: string) => {
        if (!(f in files)) throw new Error("ENOENT");
        return files[f]!;
      },
    };
  }
  const pkg = (v: unknown) => ({ "/r/codex-package.json": JSON.stringify({ version: v, entrypoint: "bin/codex" }) });
  const codexAt = (pid: number, procs: Record<number, [number, string]>, files: Record<string, string>) =>
    versionFromAncestors(CODEX_BINARY, pid, fake(procs, files));

  it("walks up past the wrapper, timeout and shell to the agent", () => {
    const procs: Record<number, [number, string]> = {
      10: [9, "/usr/bin/node"],
      9: [8, "/usr/bin/timeout"],
      8: [7, "/bin/dash"],
      7: [6, "/bin/bash"],
      6: [1, "/r/bin/codex"],
    };
    expect(codexAt(10, procs, pkg("0.171.0"))).toBe("0.171.0");
  });

  it("unknown: a malformed version, a replaced binary, no agent, an unreadable ancestor, too deep", () => {
    const chain = (exe: string): Record<number, [number, string]> => ({ 3: [2, "/bin/sh"], 2: [1, exe] });
    expect(codexAt(3, chain("/r/bin/codex"), pkg("0.171"))).toBeUndefined();
    expect(codexAt(3, chain("/r/bin/codex"), pkg(171))).toBeUndefined();
    expect(codexAt(3, chain("/r/bin/codex"), { "/r/codex-package.json": "{not json" })).toBeUndefined();
    expect(codexAt(3, chain("/r/bin/codex (deleted)"), pkg("0.171.0"))).toBeUndefined();
    expect(codexAt(3, chain("/usr/bin/claude"), pkg("0.171.0"))).toBeUndefined();
    expect(codexAt(3, { 3: [2, "/bin/sh"] }, pkg("0.171.0"))).toBeUndefined();
    const deep: Record<number, [number, string]> = { 1: [0, "/r/bin/codex"] };
    for (let pid = 2; pid <= 12; pid++) deep[pid] = [pid - 1, "/bin/sh"];
    expect(codexAt(12, deep, pkg("0.171.0"))).toBeUndefined();
    expect(codexAt(4, deep, pkg("0.171.0"))).toBe("0.171.0");
  });
});
