import { afterAll, afterEach, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { watchedFacts, type WatchedFacts } from "../../../src/agent/node/watchedFacts";
import type { Gate } from "../../../src/core/gate";
import type { Judged } from "../../../src/core/resolvedCall";
import type { Decision } from "../../../src/core/types";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

/**
 * The seam of the file-system facts cache: the real gate, a real workspace and the CLI's fs.watch watcher.
 * A decision keeps its facts for the next one, and a change made on disk between two decisions is seen by the
 * next decision once the watcher has reported it — or at once when the gate is told that a call it judged ran.
 * Remove the invalidation (the watcher's callback, or `Gate.ran`) and these tests fail.
 */
const t = tempTree({
  "ws/docs/a.md": "a",
  "ws/src/index.ts": "x",
  "ws/sub/file.txt": "s",
  "ws/.toolgateignore": "*.secret\n",
  "ws/.vscode/settings.json": "{}",
  "ws/.githooks/.keep": "",
  "outside/a.md": "outside",
});
afterAll(() => t.cleanup());
const ws = t.path("ws");
const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd: ws,
    stdio: "ignore",
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
  });
git("init", "-q");
git("add", "-A");
git("commit", "-q", "-m", "initial");

const settings = { "toolgate.autoApprove.actions": { readFiles: true, editFiles: true, executeSafeCommands: true } };
const run = (command: string) => call("execute_command", { command });
let open: WatchedFacts[] = [];
afterEach(() => {
  open.forEach((w) => w.close());
  open = [];
});

async function watchedGate(): Promise<{ gate: Gate; watched: WatchedFacts }> {
  const watched = watchedFacts([ws]);
  open.push(watched);
  return { gate: await gateWith(settings, [ws], { facts: watched.facts }), watched };
}

/** Decides again until the answer differs from `before` (the watcher's report arrives asynchronously). */
async function nextDifferent(gate: Gate, c: ReturnType<typeof call>, before: Decision["decision"]): Promise<Judged> {
  const deadline = Date.now() + 3_000;
  for (;;) {
    const d = gate.decide(c);
    if (d.decision !== before || Date.now() > deadline) return d;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("decisions over watched file-system facts", () => {
  it("a second decision on the same paths makes no system call for them", async () => {
    const { gate, watched } = await watchedGate();
    expect(gate.decide(run("grep -rn TODO src docs")).decision).toBe("allow");
    const calls = watched.facts.stats.calls;
    expect(gate.decide(run("grep -rn TODO src docs")).decision).toBe("allow");
    expect(watched.facts.stats.calls).toBe(calls);
  });

  it("a path resolved through a link is never kept: a hop re-pointed outside the workspace counts at once", async () => {
    // ws/ext -> outside/hop -> ws/src: where it leads is decided outside the watched tree.
    mkdirSync(t.path("outside/one"), { recursive: true });
    writeFileSync(t.path("outside/one/index.ts"), "o");
    symlinkSync(t.path("ws/src"), t.path("outside/hop"));
    symlinkSync(t.path("outside/hop"), t.path("ws/ext"));
    const { gate } = await watchedGate();
    const read = call("read_file", { path: "ext/index.ts" });
    expect(gate.decide(read).decision).toBe("allow");
    expect(gate.decide(read).decision).toBe("allow");
    rmSync(t.path("outside/hop"));
    symlinkSync(t.path("outside/one"), t.path("outside/hop"));
    // No await, and no watcher looks at `outside`: only not keeping the resolution makes this right.
    const after = gate.decide(read);
    expect(after).toMatchObject({ decision: "ask", rule: "autoApprove.readFilesExternally" });
    expect(after.resolved?.path?.real).toBe(t.path("outside/one/index.ts"));
    rmSync(t.path("ws/ext"));
  });

  it("a directory swapped for a symlink out of the workspace is seen by the next decision", async () => {
    const { gate } = await watchedGate();
    expect(gate.decide(call("read_file", { path: "docs/a.md" })).decision).toBe("allow");
    renameSync(t.path("ws/docs"), t.path("ws/docs.old"));
    symlinkSync(t.path("outside"), t.path("ws/docs"));
    const after = await nextDifferent(gate, call("read_file", { path: "docs/a.md" }), "allow");
    expect(after).toMatchObject({ decision: "ask", rule: "autoApprove.readFilesExternally" });
    expect(after.resolved?.path?.real).toBe(t.path("outside/a.md"));
  });

  it("a directory made below a recursive read, holding an ignored file, is seen by the next decision", async () => {
    const { gate } = await watchedGate();
    expect(gate.decide(run("grep -rn TODO src")).decision).toBe("allow");
    mkdirSync(t.path("ws/src/keys"));
    writeFileSync(t.path("ws/src/keys/prod.secret"), "k");
    const after = await nextDifferent(gate, run("grep -rn TODO src"), "allow");
    expect(after.decision).toBe("ask");
    expect(after.reason).toContain("src/keys/prod.secret");
  });

  it("a `.git` appearing in a subdirectory makes git there another repository at the next decision", async () => {
    const { gate } = await watchedGate();
    expect(gate.decide(run("git -C sub status")).decision).toBe("allow");
    execFileSync("git", ["init", "-q", t.path("ws/sub")], { stdio: "ignore" });
    const after = await nextDifferent(gate, run("git -C sub status"), "allow");
    expect(after).toMatchObject({ decision: "ask", rule: "git:other-repository" });
  });

  it("an ignore file edited: the gate rebuilt on the same facts judges the walk by the new rules", async () => {
    const { gate, watched } = await watchedGate();
    expect(gate.decide(run("grep -rn x sub")).decision).toBe("allow");
    writeFileSync(t.path("ws/.toolgateignore"), "*.secret\n*.txt\n");
    // The host and `run` rebuild the gate when the ignore file changes; the facts are the task's.
    const rebuilt = await gateWith(settings, [ws], { facts: watched.facts });
    const after = rebuilt.decide(run("grep -rn x sub"));
    expect(after.decision).toBe("ask");
    expect(after.reason).toContain("sub/file.txt");
    writeFileSync(t.path("ws/.toolgateignore"), "*.secret\n");
  });

  it("the git configuration's hooksPath changed makes the new hooks folder protected at the next decision", async () => {
    const { gate } = await watchedGate();
    const hook = call("write_to_file", { path: ".githooks/pre-commit", content: "#!/bin/sh\n" });
    expect(gate.decide(hook).decision).toBe("allow");
    git("config", "core.hooksPath", ".githooks");
    const after = await nextDifferent(gate, hook, "allow");
    expect(after.decision).toBe("ask");
    expect(after.rule).toMatch(/^protected/);
    git("config", "--unset", "core.hooksPath");
  });

  it("a call the gate judged has run: its changes are seen at once, without waiting on the watcher", async () => {
    const { gate } = await watchedGate();
    mkdirSync(t.path("ws/lib"));
    writeFileSync(t.path("ws/lib/a.ts"), "a");
    gate.ran(); // the directory was made by a call whose judged form is gone
    expect(gate.decide(run("grep -rn TODO lib")).decision).toBe("allow");
    const touch = gate.decide(run("touch lib/b.secret"));
    writeFileSync(t.path("ws/lib/b.secret"), "k"); // what the command did
    gate.ran(touch.resolved);
    // No await: the watcher cannot have reported anything yet, so only `ran` makes this decision see the file.
    const d = gate.decide(run("grep -rn TODO lib"));
    expect(d.decision).toBe("ask");
    expect(d.reason).toContain("lib/b.secret");
  });
});
