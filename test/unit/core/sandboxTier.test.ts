import { afterAll, describe, expect, it } from "vitest";
import type { GateOptions } from "../../../src/core/gate";
import { IgnoreRules } from "../../../src/core/ignoreFile";
import type { Judged } from "../../../src/core/resolvedCall";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";
import { SANDBOXED_AUTONOMY } from "../../support/presetSettings";

/**
 * DESIGN step 5, "Commands in the sandbox" (core/sandboxTier.ts): with `executeInSandbox`, a line the analysis
 * fully models runs unasked under the workspace-write grant unless it crosses a boundary, which asks by name.
 */
const t = tempTree({
  "ws/src/a.ts": "a",
  "ws/.env": "S=1",
  "ws/.toolgateignore": ".env\n",
  "ws/package.json": "{}",
  "ws/scripts/x.sh": "#!/bin/sh\necho > made\n",
  "ws/tools/gen.js": "",
  "ws/Makefile": "all:\n\techo hi > out\n",
});
afterAll(() => t.cleanup());
const roots = [t.path("ws")];
const cmd = (command: string, extra: Record<string, unknown> = {}) => call("execute_command", { command, ...extra });

const SANDBOXED = SANDBOXED_AUTONOMY;
const WORKS: Partial<GateOptions> = { sandbox: { available: true }, checkpoints: { available: true } };
const sandboxed = (extra: Partial<GateOptions> = {}, flat: Record<string, unknown> = {}) =>
  gateWith({ ...SANDBOXED, ...flat }, roots, { ...WORKS, ...extra });
const summary = (d: Judged) => ({ decision: d.decision, rule: d.rule });

describe("the sandboxed tier: what runs", () => {
  it("project runners, builds, scripts, edits and commits run under workspace-write, no hosts", async () => {
    const g = await sandboxed();
    for (const line of [
      "npm test",
      "./scripts/x.sh",
      "node tools/gen.js",
      "make",
      "bash scripts/x.sh",
      "npx tsc -p .",
      "pytest -q",
      "cargo build",
      "go test ./...",
      "git commit -m wip",
      "mv src/a.ts src/b.ts",
      "sed -i s/a/b/ src/a.ts",
      'node -e \'require("fs").writeFileSync("x", "1")\'',
      "python3 -c 'print(1)'",
    ]) {
      const d = g.decide(cmd(line));
      expect(summary(d), line).toEqual({ decision: "allow", rule: "autoApprove.executeInSandbox" });
      expect(d.resolved?.command?.grant, line).toEqual({ kind: "workspace-write", hosts: [] });
    }
  });

  it("is off by default, and needs executeSafeCommands too", async () => {
    expect((await gateWith({}, roots, WORKS)).decide(cmd("make")).decision).toBe("ask");
    const noSafe = await gateWith(
      { "toolgate.autoApprove.actions": { executeSafeCommands: false, executeInSandbox: true } },
      roots,
      WORKS,
    );
    expect(noSafe.decide(cmd("make")).decision).toBe("ask");
  });
});

describe("the sandboxed tier: each boundary asks, and the rule names it", () => {
  it("the network: the program or subcommand is named", async () => {
    const g = await sandboxed();
    for (const [line, named] of [
      ["curl https://example.com", "`curl` reaches the network"],
      ["wget -q https://example.com/x", "`wget` reaches the network"],
      ["git push origin main", "`git push` reaches the network"],
      ["git -C . fetch", "`git fetch` reaches the network"],
      ["npm install", "`npm install` reaches the network"],
      ["npm --prefix sub i left-pad", "`npm i` reaches the network"],
      ["yarn", "`yarn` reaches the network"],
      ["pip install requests", "`pip install` reaches the network"],
      ["python3 -m pip install requests", "`python3 -m pip` reaches the network"],
      ["cargo publish", "`cargo publish` reaches the network"],
      ["go get example.com/m", "`go get` reaches the network"],
      ["ssh host ls", "`ssh` reaches the network"],
      ["rsync -a src host:backup", "`rsync to a host` reaches the network"],
      ["docker ps", "`docker` reaches the network"],
      ["gh pr list", "`gh` reaches the network"],
      ["make && timeout 5 curl https://example.com", "`curl` reaches the network"],
      ["sh -c 'git submodule update --init'", "`git submodule` reaches the network"],
    ]) {
      const d = g.decide(cmd(line!));
      expect(summary(d), line).toEqual({ decision: "ask", rule: "sandbox:network" });
      expect(d.reason, line).toContain(named);
    }
    // Local rsync and git without a remote are not the network.
    expect(g.decide(cmd("rsync -a src/ backup/")).decision).toBe("allow");
    expect(g.decide(cmd("git add src/a.ts")).decision).toBe("allow");
  });

  it("a host the person listed: the line runs with exactly that host", async () => {
    const g = await sandboxed({ sandboxNetwork: ["example.com"] });
    const d = g.decide(cmd("curl https://example.com"));
    expect(summary(d)).toEqual({ decision: "allow", rule: "autoApprove.executeInSandbox" });
    expect(d.resolved?.command?.grant).toEqual({ kind: "workspace-write", hosts: ["example.com"] });
    // A host not listed still asks.
    expect(summary(g.decide(cmd("curl https://other.org")))).toEqual({ decision: "ask", rule: "sandbox:network" });
  });

  it("outside the workspace, ignored files, deletion, dynamic code", async () => {
    const g = await sandboxed();
    expect(summary(g.decide(cmd("touch ../x")))).toEqual({ decision: "ask", rule: "sandbox:outside-write" });
    expect(summary(g.decide(cmd("make > /tmp/log")))).toEqual({ decision: "ask", rule: "sandbox:outside-write" });
    expect(summary(g.decide(cmd("cat ../other.txt")))).toEqual({ decision: "ask", rule: "sandbox:outside-read" });
    expect(summary(g.decide(cmd("./scripts/x.sh /etc/passwd")))).toEqual({
      decision: "ask",
      rule: "sandbox:outside-read",
    });
    // A project runner pointed at another directory or file runs that project's code: an outside read.
    for (const line of [
      "make -C ../x",
      "make --directory=/etc",
      "make --dir /etc",
      "make -f/etc/x.mk",
      "make -I /usr/include/evil",
      "npm --prefix ../x test",
      "npm -C /tmp/x run build",
      "npm test --userconfig=/tmp/npmrc",
      "npx --prefix /tmp/x tsc",
      "pnpm -C .. test",
      "pnpm --dir=/tmp test",
      "yarn --cwd /tmp test",
    ])
      expect(summary(g.decide(cmd(line))), line).toEqual({ decision: "ask", rule: "sandbox:outside-read" });
    for (const line of ["make -C src", "make -f Makefile", "npm --prefix . test"])
      expect(summary(g.decide(cmd(line))), line).toEqual({ decision: "allow", rule: "autoApprove.executeInSandbox" });
    // An ignored file read directly is refused in every mode; read inside a tree it asks.
    expect(summary(g.decide(cmd("cat .env")))).toEqual({ decision: "deny", rule: "ignoreFile: .toolgateignore" });
    expect(summary(g.decide(cmd("grep -r S .")))).toEqual({ decision: "ask", rule: "ignoreFile: .toolgateignore" });
    expect(summary(g.decide(cmd("rm out")))).toEqual({ decision: "ask", rule: "commands:deletes" });
    expect(summary(g.decide(cmd('eval "$x"')))).toEqual({ decision: "ask", rule: "commands:dynamic-code" });
    const shc = g.decide(cmd('sh -c "$x"'));
    expect(shc.decision).toBe("ask");
    expect(shc.danger).toContain("unparseable");
  });

  it("a `cd` out of the workspace folder, or one not followed, asks; one into a subfolder runs", async () => {
    const g = await sandboxed();
    // A literal target is itself a read outside; either way the rule names leaving the workspace.
    for (const line of ["cd .. && make", "cd ~ && make", "cd /tmp && ./x.sh", "pushd .. && make"]) {
      const d = g.decide(cmd(line));
      expect(d.decision, line).toBe("ask");
      expect(d.rule, line).toMatch(/^sandbox:outside-(read|cwd)$/);
    }
    // A `cd` the analysis cannot follow is a hard ask where the ignore file has rules; without any, it is this
    // tier's boundary.
    const open = await sandboxed({ ignore: IgnoreRules.empty(".toolgateignore") });
    for (const line of ['cd "$D" && make', "cd - && make"])
      expect(summary(open.decide(cmd(line))), line).toEqual({ decision: "ask", rule: "sandbox:outside-cwd" });
    expect(open.decide(cmd("make")).decision).toBe("allow");
    expect(g.decide(cmd("cd scripts && ./x.sh")).decision).toBe("allow");
  });

  it("discarding uncommitted work asks as deletion (in every mode, before the tier); branch work and stashing run", async () => {
    const g = await sandboxed();
    for (const line of [
      "git checkout -- src/a.ts",
      "git checkout .",
      "git checkout HEAD~1 src/a.ts",
      "git restore src/a.ts",
      "git reset --hard HEAD~1",
      "git stash drop",
      "git switch --discard-changes main",
      "make && git -C . reset --hard",
    ])
      expect(summary(g.decide(cmd(line))), line).toEqual({ decision: "ask", rule: "commands:deletes" });
    for (const line of ["git checkout -b feature", "git switch main", "git restore --staged src/a.ts", "git stash"])
      expect(g.decide(cmd(line)).decision, line).toBe("allow");
  });

  it("no working sandbox, or no checkpoint, asks and says why", async () => {
    const off = await sandboxed({ sandbox: { available: false, reason: "bwrap is not installed" } });
    const d = off.decide(cmd("make"));
    expect(summary(d)).toEqual({ decision: "ask", rule: "sandbox:unavailable" });
    expect(d.reason).toContain("bwrap is not installed");
    // Not known is not "works".
    expect(
      summary((await gateWith(SANDBOXED, roots, { checkpoints: { available: true } })).decide(cmd("make"))),
    ).toEqual({ decision: "ask", rule: "sandbox:unavailable" });
    const noCk = await sandboxed({ checkpoints: { available: false, reason: "toolgate.checkpoints.enabled is off" } });
    const c = noCk.decide(cmd("make"));
    expect(summary(c)).toEqual({ decision: "ask", rule: "sandbox:no-checkpoint" });
    expect(c.reason).toContain("toolgate.checkpoints.enabled is off");
    // A gate that takes no checkpoint (a hook) asks too.
    expect(summary((await gateWith(SANDBOXED, roots, { sandbox: { available: true } })).decide(cmd("make")))).toEqual({
      decision: "ask",
      rule: "sandbox:no-checkpoint",
    });
  });

  it("headless, a boundary is a refusal under the same rule", async () => {
    const g = await sandboxed({ headless: true });
    expect(summary(g.decide(cmd("curl https://example.com")))).toEqual({ decision: "deny", rule: "sandbox:network" });
    expect(g.decide(cmd("make")).decision).toBe("allow");
  });
});

describe("sandbox: false, the model's request to leave the sandbox", () => {
  const leave = (line: string) => cmd(line, { sandbox: false, reason: "it must write ~/.cache" });

  it("needs a reason", async () => {
    const g = await sandboxed();
    const d = g.decide(cmd("make", { sandbox: false }));
    expect(summary(d)).toEqual({ decision: "deny", rule: "validator:missing-param" });
    expect(g.decide(cmd("make", { sandbox: false, reason: "  " })).decision).toBe("deny");
    expect(g.decide(cmd("make", { sandbox: "no" })).decision).toBe("deny");
  });

  it("always asks with the reason: the sandboxed tier, auto mode and approve-all included", async () => {
    for (const flat of [{}, { "toolgate.mode": "auto" }, { "toolgate.autoApprove.all": true }]) {
      const g = await sandboxed({}, flat);
      const d = g.decide(leave("ls"));
      expect(summary(d), JSON.stringify(flat)).toEqual({ decision: "ask", rule: "sandbox:leave" });
      expect(d.reason).toContain("it must write ~/.cache");
      expect(d.resolved?.command?.leaveSandbox).toEqual({ reason: "it must write ~/.cache" });
    }
    // `sandbox: true` is the default: nothing changes.
    expect((await sandboxed()).decide(cmd("ls", { sandbox: true })).decision).toBe("allow");
  });

  it("is refused in plan mode, and headless with its own rule", async () => {
    const plan = await sandboxed({}, { "toolgate.mode": "plan" });
    expect(summary(plan.decide(leave("ls")))).toEqual({ decision: "deny", rule: "mode:plan" });
    const headless = await sandboxed({ headless: true }, { "toolgate.mode": "auto" });
    expect(summary(headless.decide(leave("ls")))).toEqual({ decision: "deny", rule: "sandbox:leave" });
  });

  it("deny rules still refuse first", async () => {
    const g = await sandboxed({}, { "toolgate.commands.deny": ["make"] });
    expect(g.decide(leave("make")).decision).toBe("deny");
  });
});
