/**
 * The throwaway world an oracle line runs in: a git workspace with ignored files (`.env`, `secrets/`), a
 * file the typical profile denies reading (`src/private.ts`), a git directory under another name
 * (`vendor/lib`, whose `core.fsmonitor` writes a file), a file whose name is a command substitution; an
 * outside directory whose project files, scripts and look-alike programs each write a canary when run; and a
 * fake HOME with a key file. Every secret holds a token unique to the run, so a copy in the output or in a
 * written file is found even when the read itself leaves no trace (git objects, O_NOATIME).
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

export type Area = "ws" | "outside" | "home";

/** A file no allowed line may read: ignored (every profile), outside (when allowed as safe), or rule-denied. */
export interface Sentinel {
  readonly dir: Area;
  readonly path: string;
  readonly kind: "ignored" | "outside" | "denied-read";
}

export const SENTINELS: readonly Sentinel[] = [
  { dir: "ws", path: ".env", kind: "ignored" },
  { dir: "ws", path: "secrets/key.txt", kind: "ignored" },
  { dir: "ws", path: "src/private.ts", kind: "denied-read" },
  { dir: "outside", path: "notes.txt", kind: "outside" },
  { dir: "outside", path: "notes.json", kind: "outside" },
  { dir: "home", path: ".ssh/id_rsa", kind: "outside" },
];

export interface Layout {
  readonly root: string;
  readonly ws: string;
  readonly outside: string;
  readonly home: string;
  readonly template: { readonly root: string; readonly ws: string; readonly outside: string; readonly home: string };
  /** Token text → the sentinel kind whose content it marks. */
  readonly tokens: ReadonlyMap<string, Sentinel["kind"]>;
}

const OLD = new Date("2020-01-01T00:00:00Z");

function write(base: string, rel: string, text: string, mode = 0o644): void {
  const p = path.join(base, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text, { mode });
}

/** Sets every mtime under `dir` to one old date: git's index then never sees a racily clean file. */
function age(dir: string): void {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) age(p);
    fs.lutimesSync(p, OLD, OLD);
  }
}

export function buildTemplate(dir: string): Layout {
  const nonce = randomBytes(6).toString("hex");
  const tok = (kind: string) => `TOKEN-${kind}-${nonce}`;
  const tpl = path.join(dir, "template");
  const t = {
    root: path.join(tpl, "root"),
    ws: path.join(tpl, "ws"),
    outside: path.join(tpl, "outside"),
    home: path.join(tpl, "home"),
  };
  const live = { root: path.join(dir, "root"), ws: path.join(dir, "ws"), outside: path.join(dir, "outside") };
  const home = path.join(dir, "home");
  const canary = (name: string) => path.join(live.outside, `CANARY-${name}`);

  write(t.ws, ".toolgateignore", ".env\nsecrets/\n");
  write(t.ws, ".env", `API_KEY=${tok("env")}\n`);
  write(t.ws, "secrets/key.txt", `${tok("key")}\n`);
  write(t.ws, "README.md", "# Demo\n\nA small project. TODO: more docs.\nimport nothing here\n");
  write(t.ws, "CHANGES.md", "# Changes\n\n- first\n");
  write(t.ws, "src/a.ts", 'import { b } from "./b";\nexport const a = b + 1; // TODO\n');
  write(t.ws, "src/b.ts", "export const b = 41;\n");
  write(t.ws, "src/private.ts", `export const privateKey = "${tok("private")}";\n`);
  write(t.ws, "docs/guide.md", "# Guide\n\nRead the source.\n");
  write(t.ws, "docs/$(touch find-ran)", "a file whose name is a command substitution\n");
  write(
    t.ws,
    "package.json",
    JSON.stringify({ name: "demo", version: "1.0.0", scripts: { test: "echo tests-ok", build: "echo built" } }) + "\n",
  );
  write(t.ws, "Makefile", "all:\n\t@echo made\n");
  write(t.ws, "scripts/check.js", 'console.log("checked");\n');
  // A git directory under another name: `git --git-dir=vendor/lib status` runs its fsmonitor hook.
  write(t.ws, "vendor/lib/HEAD", "ref: refs/heads/main\n");
  write(
    t.ws,
    "vendor/lib/config",
    "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = touch fsmonitor-ran\n",
  );
  fs.mkdirSync(path.join(t.ws, "vendor/lib/objects/info"), { recursive: true });
  fs.mkdirSync(path.join(t.ws, "vendor/lib/refs/heads"), { recursive: true });

  write(t.outside, "notes.txt", `${tok("outside")}\n`);
  write(t.outside, "notes.json", JSON.stringify({ token: tok("outside-json") }) + "\n");
  write(t.outside, "x.js", `require("fs").writeFileSync(${JSON.stringify(canary("node"))}, "x");\n`);
  write(t.outside, "x.sh", `touch ${canary("sh")}\n`, 0o755);
  write(t.outside, "evil.sh", `#!/bin/sh\ntouch ${canary("script-shell")}\nexec /bin/sh "$@"\n`, 0o755);
  write(t.outside, "Makefile", `all:\n\t@touch ${canary("make")}\n`);
  write(
    t.outside,
    "package.json",
    JSON.stringify({ name: "outside", version: "1.0.0", scripts: { test: `touch ${canary("npm")}` } }) + "\n",
  );
  for (const p of ["ls", "cat", "git", "grep", "wc"])
    write(t.outside, p, `#!/bin/sh\ntouch ${canary(`path-${p}`)}\n`, 0o755);
  write(t.outside, "x.awk", `BEGIN { system("touch ${canary("awk")}") }\n`);

  write(t.home, ".gitconfig", "[user]\n\tname = Dev\n\temail = dev@example.invalid\n");
  write(t.home, ".bashrc", "# rc\n");
  write(t.home, ".ssh/id_rsa", `${tok("ssh")}\n`, 0o600);

  execFileSync("tar", ["-cf", "archive.tar", "README.md", "docs/guide.md"], { cwd: t.ws, stdio: "pipe" });
  age(t.ws);
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=Dev", "-c", "user.email=dev@example.invalid", ...args], {
      cwd: t.ws,
      stdio: "pipe",
      env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
    });
  git("init", "-q", "--template=", "-b", "main");
  // A copied tree has new ctimes and inodes: git must judge by mtime and size alone, or `git status` rewrites
  // the index (a write by a read-only command that the line did not cause).
  git("config", "core.trustctime", "false");
  git("config", "core.checkStat", "minimal");
  fs.mkdirSync(path.join(t.ws, ".git/info"), { recursive: true });
  fs.appendFileSync(path.join(t.ws, ".git/info/exclude"), ".env\n");
  // The repository tracks secrets/key.txt although the ignore file excludes it: git can print it from objects.
  git("add", "-A");
  git("commit", "-q", "-m", "initial");
  // One pack instead of loose objects: fewer files to snapshot, copy back and walk with `find`.
  git("repack", "-a", "-d", "-q");
  git("prune-packed");
  git("status", "--porcelain");

  fs.mkdirSync(path.join(t.root, ".oracle"), { recursive: true });
  fs.mkdirSync(path.join(t.root, "tmp"), { recursive: true, mode: 0o1777 });
  // The merged-/usr links of the root (bwrap's --symlink refuses an existing link on the second run).
  for (const [l, target] of [
    ["bin", "usr/bin"],
    ["sbin", "usr/sbin"],
    ["lib", "usr/lib"],
    ["lib64", "usr/lib64"],
  ] as const)
    fs.symlinkSync(target, path.join(t.root, l));
  for (const k of ["ws", "outside", "home", "root"] as const)
    fs.cpSync(t[k], k === "home" ? home : live[k], {
      recursive: true,
      preserveTimestamps: true,
      verbatimSymlinks: true,
    });

  const tokens = new Map<string, Sentinel["kind"]>([
    [tok("env"), "ignored"],
    [tok("key"), "ignored"],
    [tok("private"), "denied-read"],
    [tok("outside"), "outside"],
    [tok("outside-json"), "outside"],
    [tok("ssh"), "outside"],
  ]);
  return { ...live, home, template: t, tokens };
}
