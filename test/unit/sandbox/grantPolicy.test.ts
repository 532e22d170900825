import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { toolchainRoots } from "../../../src/agent/sandbox/homeInputs";
import { bwrapArgs } from "../../../src/core/sandbox/bwrapArgs";
import { describeGrant, grantOf, withApprovedReads } from "../../../src/core/sandbox/grant";
import { policyForGrant, TooManyMountsError, type TaskSandboxInputs } from "../../../src/core/sandbox/grantPolicy";
import { packageCacheEnv } from "../../../src/core/sandbox/packageCaches";
import { classifySandboxFailure } from "../../../src/core/sandbox/sandboxFailure";
import { seatbeltProfile } from "../../../src/core/sandbox/seatbeltProfile";

const fixed: TaskSandboxInputs = {
  roots: ["/home/u/ws"],
  scan: { readOnly: ["/home/u/ws/.git/config"], hiddenFiles: ["/home/u/ws/.env"], hiddenDirs: [] },
  secrets: { files: ["/home/u/.npmrc", "/home/u/.cargo/credentials.toml"], dirs: ["/home/u/.ssh"] },
  privateDirs: ["/tmp", "/run"],
  taskTmp: "/tmp/toolgate-tasks-0/1-t-abc",
  home: "/home/u",
  otherHomes: ["/home"],
  toolchains: ["/home/u/.cargo", "/home/u/.gitconfig", "/opt/node"],
  caches: ["/home/u/.cache/toolgate/pkg"],
};
const opts = { emptyFile: "/e/empty", emptyDir: "/e/empty.d", disableUserns: true, cwd: "/home/u/ws" };

function mounts(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--tmpfs" || a === "--remount-ro") out.push(`${a} ${args[++i]!}`);
    else if (a.includes("bind")) out.push(`${a} ${args[++i]!} ${args[++i]!}`);
  }
  return out;
}

describe("one function from a grant to the sandbox", () => {
  it("workspace-write: roots and caches writable, home emptied then toolchains bound, remounted read-only last", () => {
    expect(mounts(bwrapArgs(policyForGrant(grantOf("workspace-write"), fixed), opts))).toEqual([
      "--ro-bind / /",
      "--tmpfs /home",
      "--tmpfs /run",
      "--bind /tmp/toolgate-tasks-0/1-t-abc /tmp",
      "--tmpfs /home/u",
      "--bind /home/u/ws /home/u/ws",
      "--ro-bind-try /home/u/.cargo /home/u/.cargo",
      "--ro-bind-try /home/u/.gitconfig /home/u/.gitconfig",
      "--ro-bind /e/empty /home/u/ws/.env",
      "--bind /home/u/.cache/toolgate/pkg /home/u/.cache/toolgate/pkg",
      "--ro-bind-try /home/u/ws/.git/config /home/u/ws/.git/config",
      // Hidden because a bind brings it back; ~/.npmrc and ~/.ssh are not in the empty home at all.
      "--ro-bind /e/empty /home/u/.cargo/credentials.toml",
      "--remount-ro /home",
      "--remount-ro /home/u",
    ]);
  });

  it("read-only: the roots and the caches are bound read-only; only the task's /tmp is writable", () => {
    const m = mounts(bwrapArgs(policyForGrant(grantOf("read-only"), fixed), opts));
    expect(m).toContain("--ro-bind-try /home/u/ws /home/u/ws");
    expect(m).toContain("--ro-bind-try /home/u/.cache/toolgate/pkg /home/u/.cache/toolgate/pkg");
    expect(m.filter((x) => x.startsWith("--bind "))).toEqual(["--bind /tmp/toolgate-tasks-0/1-t-abc /tmp"]);
  });

  it("a toolchain outside the home needs no bind; a home of / is not emptied", () => {
    const p = policyForGrant(grantOf("workspace-write"), fixed);
    expect(p.homeBinds).not.toContain("/opt/node");
    const root = policyForGrant(grantOf("workspace-write"), { ...fixed, home: "/", otherHomes: [] });
    expect(root.home).toBeUndefined();
  });

  it("a workspace that is the home (or holds it) is not emptied: it is bound as the grant says", () => {
    const p = policyForGrant(grantOf("workspace-write"), { ...fixed, roots: ["/home/u"] });
    expect(p.home).toBeUndefined();
    expect(p.otherHomes).toEqual(["/home"]);
    expect(mounts(bwrapArgs(p, opts))).not.toContain("--remount-ro /home/u");
    const all = policyForGrant(grantOf("workspace-write"), { ...fixed, roots: ["/home"] });
    expect(all.otherHomes).toEqual([]);
    expect(all.home).toBeUndefined();
  });

  it("too many mounts: no sandbox (the caller asks), never a partial one", () => {
    const many = Array.from({ length: 200 }, (_, i) => `/home/u/ws/f${i}`);
    expect(() =>
      policyForGrant(grantOf("read-only"), { ...fixed, scan: { ...fixed.scan, hiddenFiles: many } }),
    ).toThrow(TooManyMountsError);
  });

  it("Seatbelt: the home reads as empty but for its binds; read-only writes only the scratch folder", () => {
    const text = seatbeltProfile(policyForGrant(grantOf("read-only"), fixed), {
      scratchDir: "/tmp/toolgate-tasks-0/1-t-abc",
      ignoreFileName: ".toolgateignore",
    });
    const deny = text.indexOf('(deny file-read*\n  (subpath "/home")');
    const allow = text.indexOf('(allow file-read*\n  (subpath "/home/u/.cargo")');
    expect(deny).toBeGreaterThan(0);
    expect(allow).toBeGreaterThan(deny);
    const writes = text.slice(
      text.indexOf("(allow file-write*"),
      text.indexOf(")\n", text.indexOf("(allow file-write*")),
    );
    expect(writes).not.toContain("/home/u/ws");
    expect(writes).toContain("/tmp/toolgate-tasks-0/1-t-abc");
  });
});

describe("package caches", () => {
  it("points every manager at Toolgate's folder; MAVEN_OPTS is extended, not replaced", () => {
    const env = packageCacheEnv("/c", { MAVEN_OPTS: "-Xmx1g" });
    expect(env).toMatchObject({
      npm_config_cache: "/c/npm",
      pnpm_config_store_dir: "/c/pnpm/store",
      YARN_CACHE_FOLDER: "/c/yarn",
      PIP_CACHE_DIR: "/c/pip",
      UV_CACHE_DIR: "/c/uv",
      CARGO_HOME: "/c/cargo",
      GOMODCACHE: "/c/go/mod",
      GOCACHE: "/c/go/build",
      GRADLE_USER_HOME: "/c/gradle",
      MAVEN_OPTS: "-Xmx1g -Dmaven.repo.local=/c/maven/repository",
      XDG_CACHE_HOME: "/c/xdg",
    });
  });

  it("a package manager that failed for want of network is told which host to list", () => {
    const f = classifySandboxFailure(
      { exitCode: 1, output: "npm error code EAI_AGAIN\nnpm error request to https://registry.npmjs.org/x failed" },
      {
        hidden: [],
        networkOff: true,
        listConfigured: true,
        networkHint: "no network: list registry.npmjs.org in `toolgate.sandbox.network`",
      },
    );
    expect(f).toMatchObject({ kind: "blocked", cause: "network" });
    expect(f?.kind === "blocked" ? f.message : "").toMatch(/list registry\.npmjs\.org in `toolgate\.sandbox\.network`/);
  });
});

describe("toolchain roots in the home", () => {
  const home = realpathSync(mkdtempSync(path.join(tmpdir(), "tg-home-")));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it("the parent of each PATH entry under the home (never the home itself), fixed folders, git config, interpreter", () => {
    for (const d of [
      ".pyenv/shims",
      ".pyenv/bin",
      "bin",
      ".nvm/versions/node/v20/bin",
      ".config/git",
      "tools/node/bin",
    ])
      mkdirSync(path.join(home, d), { recursive: true });
    writeFileSync(path.join(home, ".gitconfig"), "");
    symlinkSync("/usr/bin", path.join(home, "linked"));
    const PATH = [`${home}/.pyenv/shims`, `${home}/bin`, `${home}/linked`, "/usr/bin"].join(":");
    expect(toolchainRoots(home, PATH, `${home}/tools/node/bin/node`)).toEqual(
      [".config/git", ".gitconfig", ".nvm", ".pyenv", "bin", "tools/node/bin"].map((r) => path.join(home, r)),
    );
  });
});

describe("outside reads the person approved (grant.readPaths)", () => {
  const binds = (readPaths: readonly string[]) =>
    mounts(bwrapArgs(policyForGrant(withApprovedReads(grantOf("read-only"), readPaths), fixed), opts)).filter(
      (m) => m.startsWith("--ro-bind-try /home/u/notes") || m.includes(" /home/u/.ssh") || m.includes("/etc"),
    );

  it("are bound read-only into the emptied home, and only into the policy of the grant that carries them", () => {
    expect(binds(["/home/u/notes/todo.txt"])).toEqual(["--ro-bind-try /home/u/notes/todo.txt /home/u/notes/todo.txt"]);
    expect(binds([])).toEqual([]);
    expect(policyForGrant(grantOf("read-only"), fixed).homeBinds).not.toContain("/home/u/notes/todo.txt");
  });

  it("never re-expose a credential store, an ignored entry, the home itself, or what the root already shows", () => {
    const p = policyForGrant(
      withApprovedReads(grantOf("workspace-write"), [
        "/home/u/.ssh/id_rsa",
        "/home/u/.ssh",
        "/home/u/.npmrc",
        "/home/u/ws/.env",
        "/home/u",
        "/home",
        "/etc/hosts",
        "/tmp/x",
        "relative/x",
        "/home/u/a/../.ssh/id_rsa",
      ]),
      fixed,
    );
    expect(p.homeBinds).toEqual(policyForGrant(grantOf("workspace-write"), fixed).homeBinds);
  });

  it("the grant says them, and only a click adds them", () => {
    const g = withApprovedReads(grantOf("read-only"), ["/home/u/b", "/home/u/a", "/home/u/b"]);
    expect(g.readPaths).toEqual(["/home/u/a", "/home/u/b"]);
    expect(describeGrant(g)).toBe("read-only, no network, may read /home/u/a, /home/u/b (approved for this call)");
    expect(withApprovedReads(grantOf("read-only"), undefined)).toBe(grantOf("read-only"));
  });
});
