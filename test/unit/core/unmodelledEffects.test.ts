import { afterAll, describe, expect, it } from "vitest";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

/**
 * What a command does that the analysis does not model still meets the rules that bind in every mode: under
 * "run all commands", approve-all and auto, arguments of programs the catalogue does not know, state-changing
 * git subcommands, `--output` values, every directory a `cd` may leave the line in, shell state that changes
 * what a name runs and bash's own network redirects are refused or asked about — never let through.
 */
const t = tempTree({
  "ws/src/a.ts": "a",
  "ws/README.md": "# x",
  "ws/.env": "SECRET=1",
  "ws/.toolgateignore": ".env\n",
  "ws/.git/HEAD": "ref: refs/heads/main\n",
  "ws/.git/hooks/.keep": "",
});
afterAll(() => t.cleanup());
const roots = [t.path("ws")];
const cmd = (command: string) => call("execute_command", { command });

const MODES: Record<string, Record<string, unknown>> = {
  "run all commands": { "toolgate.autoApprove.actions": { executeSafeCommands: true, executeAllCommands: true } },
  "approve-all": { "toolgate.autoApprove.all": true },
  auto: { "toolgate.mode": "auto" },
};

describe.each(Object.entries(MODES))("under %s", (_name, flat) => {
  it("a protected path reached through any directory a `cd` may have left the line in asks", async () => {
    const g = await gateWith(flat, roots);
    for (const line of [
      "cd .git/hooks && echo x > pre-commit",
      "cd .git; echo x > hooks/pre-commit",
      "pushd .git/hooks; echo x > pre-commit",
      "cd src && cd ../.git/hooks && printf x >> post-checkout",
    ])
      expect({ line, d: g.decide(cmd(line)).decision }).toEqual({ line, d: "ask" });
  });

  it("an unknown program's arguments that name a protected path ask, and ignored files are refused", async () => {
    const g = await gateWith(flat, roots);
    for (const line of [
      "xxd -r README.md .git/hooks/post-checkout",
      "split -b 1 README.md .git/hooks/",
      "mytool --out=.vscode/settings.json",
      "mytool -o.git/hooks/pre-push",
      "dd if=README.md of=.git/hooks/pre-commit",
    ])
      expect({ line, d: g.decide(cmd(line)).decision }).toEqual({ line, d: "ask" });
    expect(g.decide(cmd("dd if=.env")).decision).toBe("deny");
    expect(g.decide(cmd("mytool --input=.env")).decision).toBe("deny");
    expect(g.decide(cmd("mytool README.md src/a.ts")).decision).toBe("allow");
  });

  it("git's `--output` is a write of the file it names", async () => {
    const g = await gateWith(flat, roots);
    expect(g.decide(cmd("git log --output=.git/hooks/pre-commit -1")).decision).toBe("ask");
    expect(g.decide(cmd("git diff --output .vscode/tasks.json")).decision).toBe("ask");
    expect(g.decide(cmd("git diff --outp=notes.txt")).decision).toBe("allow");
  });

  it("state-changing git subcommands are refused ignored files and ask before writing protected ones", async () => {
    const g = await gateWith(flat, roots);
    expect(g.decide(cmd("git add -f .env")).decision).toBe("deny");
    expect(g.decide(cmd("git checkout HEAD -- .vscode/settings.json")).decision).toBe("ask");
    expect(g.decide(cmd("git restore .git/hooks/pre-commit")).decision).toBe("ask");
    // Recording a protected file writes nothing in the work tree.
    expect(g.decide(cmd("git add .vscode/settings.json")).decision).toBe("allow");
    expect(g.decide(cmd("git checkout main")).decision).toBe("allow");
    expect(g.decide(cmd("git difftool -x sh")).decision).toBe("ask");
  });

  it("shell state that makes a name run another program asks", async () => {
    const g = await gateWith({ ...flat, "toolgate.commands.deny": ["rm"] }, roots);
    expect(g.decide(cmd("hash -p /bin/rm ls; ls -rf src")).decision).not.toBe("allow");
    expect(g.decide(cmd("hash -p ./tool cat; cat README.md")).decision).toBe("ask");
    expect(g.decide(cmd("enable -f ./evil.so evil")).decision).toBe("ask");
    expect(g.decide(cmd("enable -n echo; echo hi")).decision).toBe("ask");
    expect(g.decide(cmd("hash -r; hash")).decision).toBe("allow");
  });

  it("an unknown program given a denied command asks instead of running it", async () => {
    const g = await gateWith({ ...flat, "toolgate.commands.deny": ["rm", "curl"] }, roots);
    expect(g.decide(cmd("chronic rm -rf src")).decision).toBe("ask");
    expect(g.decide(cmd("mytool --quiet curl https://example.com")).decision).toBe("ask");
    expect(g.decide(cmd("mytool src")).decision).toBe("allow");
  });

  it("code or a command line handed to a program that may run it asks when it names a denied command", async () => {
    const g = await gateWith({ ...flat, "toolgate.commands.deny": ["rm", "curl"] }, roots);
    for (const line of [
      `perl -e 'system("rm -rf src")'`,
      `python3 -c 'import os; os.system("rm -rf src")'`,
      `node -e 'require("child_process").execSync("rm -rf src")'`,
      `ruby -e 'system("curl https://example.com")'`,
      "man -P 'rm -rf src' ls",
      "zip -TT 'rm -rf src' x.zip README.md",
      "rsync -e 'rm -rf src' a b:c",
      "ssh -o ProxyCommand='rm -rf src' host",
      "vim -c '!rm -rf src' -c q",
      "ed -s README.md <<< '!rm -rf src'",
      "at now <<< 'rm -rf src'",
      "make -f - <<< 'all:; rm -rf src'",
    ]) {
      // Asked about (or, where the catalogue models the option, refused): never run unasked.
      const d = g.decide(cmd(line));
      expect({ line, d: d.decision === "allow" ? "allow" : "held" }).toEqual({ line, d: "held" });
      expect(d.reason).toMatch(/rm|curl/);
    }
    // Code that names no denied command, and text that is only a message, run as before.
    for (const line of [`node -e 'console.log(1)'`, `perl -e 'print "firm"'`, `git commit -m "rm the old files"`])
      expect({ line, d: g.decide(cmd(line)).decision }).toEqual({ line, d: "allow" });
  });

  it("paths under /proc and /dev/fd, which name other files for the command than for the gate, ask", async () => {
    const g = await gateWith(flat, roots);
    expect(g.decide(cmd("cat /proc/self/cwd/.env")).decision).toBe("ask");
    expect(g.decide(cmd("cd /proc/self/cwd && cat src/a.ts")).decision).toBe("ask");
    expect(g.decide(cmd("cat /dev/fd/5")).decision).toBe("ask");
    expect(g.decide(cmd("cat /dev/stdin < src/a.ts")).decision).toBe("allow");
  });

  it("git writes what it creates: a repository's .git, a worktree, a patch's files", async () => {
    const g = await gateWith(flat, roots);
    expect(g.decide(cmd("git init")).decision).toBe("ask");
    expect(g.decide(cmd("git init sub")).decision).toBe("ask");
    expect(g.decide(cmd("git apply x.patch")).decision).toBe("ask");
    expect(g.decide(cmd("git apply --check x.patch")).decision).toBe("allow");
  });

  it("bash's /dev/tcp and /dev/udp redirects ask", async () => {
    const g = await gateWith(flat, roots);
    expect(g.decide(cmd("echo x > /dev/tcp/127.0.0.1/80")).decision).toBe("ask");
    expect(g.decide(cmd("cat < /dev/udp/10.0.0.1/53")).decision).toBe("ask");
    expect(g.decide(cmd("echo x > /dev/null")).decision).toBe("allow");
  });
});

describe("allow rules for git", () => {
  it("do not license writes outside the workspace", async () => {
    const g = await gateWith({ "toolgate.commands.allow": ["git"] }, roots);
    expect(g.decide(cmd("git worktree add /tmp/elsewhere")).decision).toBe("ask");
    expect(g.decide(cmd("git clone /tmp/other-repo")).decision).toBe("ask");
    expect(g.decide(cmd("git clone https://example.com/x.git")).decision).toBe("allow");
    expect(g.decide(cmd("git commit -m wip")).decision).toBe("allow");
  });
});

describe("allow rules for package managers", () => {
  it("license a package runner's program only when they name it", async () => {
    const g = await gateWith({ "toolgate.commands.allow": ["yarn", "pnpm", "npm", "yarn dlx prettier"] }, roots);
    expect(g.decide(cmd("yarn dlx some-package")).decision).toBe("ask");
    expect(g.decide(cmd("pnpm dlx some-package")).decision).toBe("ask");
    expect(g.decide(cmd("npm exec -- some-bin")).decision).toBe("ask");
    expect(g.decide(cmd("yarn dlx prettier --check .")).decision).toBe("allow");
    expect(g.decide(cmd("yarn build")).decision).toBe("allow");
  });
});
