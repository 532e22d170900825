/**
 * The second layer alone: attack lines run in real bash inside real bubblewrap with the analysis bypassed
 * (as if it had said "allow" with this grant), then the real file system is compared with its state before.
 * - read-only: nothing anywhere changes, except the task's private /tmp;
 * - workspace-write: nothing outside the workspace changes, nor an existing protected path in it;
 * - both: no hidden file (ignored, credential store) or other folder of $HOME is read, no loopback listener
 *   of the host is reached without hosts.
 * Lines: the execution oracle's generated attack lines, plus lines that use a program's own code-running option.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ensurePackageCaches } from "../../../src/agent/sandbox/homeInputs";
import { SandboxSession } from "../../../src/agent/sandbox/sandboxedSpawn";
import { endTaskTmp, taskTmpDir } from "../../../src/agent/sandbox/taskTmp";
import { grantOf, type GrantKind } from "../../../src/core/sandbox/grant";
import { generateLines } from "../../oracle/generators";
import { sandboxDescribe } from "../../support/sandboxRequired";
import { probe, run, varTmpDir } from "./sandboxHarness";

const MARKERS = ["SECRET-SSH", "SECRET-NOTES", "SECRET-IGNORED", "SECRET-NPMRC"];

/** Path → type and content digest (links by target), for every entry below `dir`. */
function tree(dir: string, out = new Map<string, string>()): Map<string, string> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const n of names) {
    const p = path.join(dir, n);
    const st = lstatSync(p);
    if (st.isSymbolicLink()) out.set(p, `link ${readlinkSync(p)}`);
    else if (st.isDirectory()) {
      out.set(p, `dir ${st.mode}`);
      tree(p, out);
    } else out.set(p, `file ${st.mode} ${createHash("sha256").update(readFileSync(p)).digest("hex")}`);
  }
  return out;
}

function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [p, v] of after) if (before.get(p) !== v) out.push(p);
  for (const p of before.keys()) if (!after.has(p)) out.push(p);
  return out.sort();
}

/** Lines that make a read-only program run another one through its own options, and plain writes and reads. */
const HAND_WRITTEN = [
  "find . -name README.md -exec sh -c 'echo x > f' \\;",
  "git -c core.pager='touch p' log -1",
  "git -c alias.st='!touch p' st",
  "git -c alias.st='!echo x > ../outside/al' st",
  "git -c core.pager='sh -c \"echo hi > ../outside/pwn\"' log -1",
  "sed -n '1e touch q' README.md",
  "awk 'BEGIN{system(\"touch aw\")}'",
  "python3 -c \"open('py','w').write('x')\"",
  "echo x > README.md",
  "rm -f src/a.ts",
  "mkdir -p newdir && touch newdir/f",
  "echo x > ../outside/o",
  "cp README.md ../outside/",
  "echo 'echo pwned' > .git/hooks/pre-commit",
  "git config core.hooksPath /tmp",
  "echo '{}' > .vscode/settings.json",
  'echo x > "$HOME/planted"',
  'mkdir -p "$HOME/.config/autostart" && touch "$HOME/.config/autostart/x"',
  "echo x > /var/tmp/toolgate-escape-marker",
  "cat ~/.ssh/id_rsa",
  "cat ~/.notes/plan.txt",
  "ls -la ~ ~/.notes ~/.ssh",
  "cat secret.env",
  "grep -r SECRET ~ . 2>/dev/null",
  "find / -maxdepth 4 -name 'plan.txt' -exec cat {} + 2>/dev/null",
  "cat ~/.npmrc",
  "tar cf - ~ 2>/dev/null | strings | grep SECRET",
];

let server: Server;
let port = 0;
let connections = 0;
beforeAll(async () => {
  server = createServer((s) => {
    connections++;
    s.on("error", () => undefined);
    s.end("HELLO\n");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => server.close());

function setup() {
  const parent = varTmpDir("toolgate-grant-");
  const ws = path.join(parent.dir, "ws");
  const outside = path.join(parent.dir, "outside");
  const home = path.join(parent.dir, "home");
  for (const d of [ws, outside, path.join(ws, "src"), path.join(ws, ".vscode"), path.join(home, ".ssh")])
    mkdirSync(d, { recursive: true });
  mkdirSync(path.join(home, ".notes"));
  writeFileSync(path.join(ws, "README.md"), "# readme\n");
  writeFileSync(path.join(ws, "src/a.ts"), "export const a = 1;\n");
  writeFileSync(path.join(ws, "src/private.ts"), "export const p = 2;\n");
  writeFileSync(path.join(ws, ".vscode/settings.json"), "{}\n");
  writeFileSync(path.join(ws, ".toolgateignore"), "secret.env\n");
  writeFileSync(path.join(ws, "secret.env"), "SECRET-IGNORED\n");
  writeFileSync(path.join(outside, "x.sh"), "touch PWNED\n");
  writeFileSync(path.join(home, ".ssh/id_rsa"), "SECRET-SSH\n");
  writeFileSync(path.join(home, ".notes/plan.txt"), "SECRET-NOTES\n");
  writeFileSync(path.join(home, ".npmrc"), "//r/:_authToken=SECRET-NPMRC\n");
  writeFileSync(path.join(home, ".gitconfig"), "[user]\n\tname = T\n\temail = t@example.com\n");
  spawnSync("git", ["init", "-q", ws]);
  spawnSync("git", ["-C", ws, "add", "README.md"]);
  spawnSync("git", ["-C", ws, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "init"]);
  // Toolgate creates its cache folders before the first command: not the command's doing.
  const caches = ensurePackageCaches(home, process.env.XDG_CACHE_HOME);
  const session = new SandboxSession(
    { roots: [ws], ignoreFileName: ".toolgateignore", network: { kind: "off" }, home },
    probe,
  );
  return { parent, ws, outside, home, session, caches };
}

const isProtected = (ws: string, p: string) =>
  [".git/config", ".git/hooks", ".git/info", ".vscode"].some(
    (r) => p === path.join(ws, r) || p.startsWith(path.join(ws, r) + "/"),
  );

sandboxDescribe(probe)("the sandbox alone contains what a wrong 'allow' would run (real bubblewrap)", () => {
  const lines = [...HAND_WRITTEN, ...generateLines(60, 20261202).map((g) => g.line)];

  it.each(["read-only", "workspace-write"] as GrantKind[])(
    "%s: every attack line stays inside its grant, reads no hidden file and no other $HOME folder",
    async (kind) => {
      const s = setup();
      const outside = ["/var/tmp/toolgate-escape-marker"];
      try {
        const violations: string[] = [];
        for (const line of lines) {
          const before = tree(s.parent.dir);
          const r = await run(s.session, line, true, { HOME: s.home }, { grant: grantOf(kind), taskKey: `t-${kind}` });
          const diff = changed(before, tree(s.parent.dir));
          const bad =
            kind === "read-only"
              ? diff
              : diff.filter((p) => !(p.startsWith(s.ws + "/") || p.startsWith(s.caches + "/")) || isProtected(s.ws, p));
          if (bad.length > 0) violations.push(`${line}\n  changed: ${bad.join(", ")}`);
          for (const m of MARKERS) if (r.out.includes(m)) violations.push(`${line}\n  read ${m}`);
          for (const o of outside) if (existsSync(o)) violations.push(`${line}\n  wrote ${o}`);
          // Reset what a workspace-write line legitimately changed, so the next line starts alike.
          if (kind === "workspace-write" && diff.length > 0) {
            s.parent.cleanup();
            Object.assign(s, setup());
          }
        }
        expect(violations).toEqual([]);
      } finally {
        s.parent.cleanup();
      }
    },
    120_000,
  );

  it("the attack lines do their harm without the sandbox (so the checks above can fail)", async () => {
    const s = setup();
    try {
      const harm: [string, (r: { out: string }) => boolean][] = [
        ["find . -name README.md -exec sh -c 'echo x > f' \\;", () => existsSync(path.join(s.ws, "f"))],
        ["git -c alias.st='!touch p' st", () => existsSync(path.join(s.ws, "p"))],
        ["sed -n '1e touch q' README.md", () => existsSync(path.join(s.ws, "q"))],
        ["echo x > ../outside/o", () => existsSync(path.join(s.outside, "o"))],
        ['echo x > "$HOME/planted"', () => existsSync(path.join(s.home, "planted"))],
        ["cat ~/.notes/plan.txt", (r) => r.out.includes("SECRET-NOTES")],
        ["cat ~/.ssh/id_rsa", (r) => r.out.includes("SECRET-SSH")],
        ["cat secret.env", (r) => r.out.includes("SECRET-IGNORED")],
      ];
      for (const [line, did] of harm) {
        const r = await run(s.session, line, false, { HOME: s.home });
        expect(did(r), line).toBe(true);
      }
    } finally {
      s.parent.cleanup();
    }
  });

  it("read-only: the task's /tmp is writable and kept across its commands, and is not the host's", async () => {
    const s = setup();
    try {
      const name = `toolgate-tmp-${process.pid}`;
      const o = { grant: grantOf("read-only"), taskKey: `tmp-${process.pid}` };
      expect((await run(s.session, `echo kept > /tmp/${name} && echo ok`, true, {}, o)).out).toContain("ok");
      expect((await run(s.session, `cat /tmp/${name}`, true, {}, o)).out).toBe("kept\n");
      expect(existsSync(`/tmp/${name}`)).toBe(false);
      // On the host it is the task's own folder, removed when the task ends.
      const dir = taskTmpDir(o.taskKey);
      expect(readFileSync(path.join(dir, name), "utf8")).toBe("kept\n");
      endTaskTmp(o.taskKey);
      expect(existsSync(dir)).toBe(false);
      // Another task does not see it.
      expect((await run(s.session, `cat /tmp/${name}`, true, {}, { ...o, taskKey: "other" })).out).not.toContain(
        "kept",
      );
    } finally {
      s.parent.cleanup();
    }
  });

  it("without hosts no connection reaches a loopback listener of the host", async () => {
    const s = setup();
    try {
      const before = connections;
      const line = `exec 3<>/dev/tcp/127.0.0.1/${port} && echo CONNECTED; curl -s --max-time 3 http://127.0.0.1:${port}/ ; true`;
      const r = await run(s.session, line, true, {}, { grant: grantOf("workspace-write") });
      expect(r.out).not.toContain("CONNECTED");
      expect(r.out).not.toContain("HELLO");
      expect(connections).toBe(before);
      // The same line outside the sandbox does connect (the listener works).
      expect((await run(s.session, line, false)).out).toContain("CONNECTED");
    } finally {
      s.parent.cleanup();
    }
  });

  it("git commit works under workspace-write with $HOME emptied (the git config is bound back)", async () => {
    const s = setup();
    try {
      const r = await run(
        s.session,
        "echo more >> README.md && git add README.md && git commit -qm second && git log --format=%an -1",
        true,
        { HOME: s.home },
        { grant: grantOf("workspace-write") },
      );
      expect(r.out.trim().split("\n").pop()).toBe("T");
      expect(spawnSync("git", ["-C", s.ws, "log", "--oneline"], { encoding: "utf8" }).stdout.split("\n")).toHaveLength(
        3,
      );
    } finally {
      s.parent.cleanup();
    }
  });
});
