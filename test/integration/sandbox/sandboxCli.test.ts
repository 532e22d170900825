import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "../../support/cli";
import { tempTree } from "../../support/workspace";
import { probe, varTmpDir } from "./sandboxHarness";
import { sandboxDescribe } from "../../support/sandboxRequired";

const t = tempTree({ "ws/a.txt": "hello\n", "ws/keys.pem": "SECRET\n", "ws/.ignore-me": "keys.pem\n" });
const out = varTmpDir("toolgate-cli-out-");
let cli = "";
beforeAll(async () => {
  cli = await buildCli();
});
afterAll(() => {
  t.cleanup();
  out.cleanup();
});

const sandbox = (args: readonly string[], env: NodeJS.ProcessEnv = process.env) =>
  spawnSync(process.execPath, [cli, "sandbox", ...args], { encoding: "utf8", env });

describe("toolgate sandbox --status", () => {
  it("prints one JSON line with available, mechanism and reason", () => {
    const r = sandbox(["--status"]);
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const status = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(status).sort()).toEqual(["available", "mechanism", "reason"]);
    expect(status.available).toBe(probe.available);
    expect(["bubblewrap", "seatbelt", "none"]).toContain(status.mechanism);
    expect(typeof status.reason).toBe("string");
  });

  it("reports a sandbox that cannot start, with the reason, and runs nothing (exit 125)", () => {
    const fake = tempTree();
    writeFileSync(
      path.join(fake.dir, "bwrap"),
      "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n",
      {
        mode: 0o755,
      },
    );
    const env = { ...process.env, PATH: `${fake.dir}:${process.env.PATH ?? ""}` };
    const status = JSON.parse(sandbox(["--status"], env).stdout) as { available: boolean; reason: string };
    expect(status.available).toBe(false);
    expect(status.reason).toMatch(/uid map/);
    const r = sandbox(["--workspace", t.path("ws"), "--", "echo ran > ran.txt"], env);
    expect(r.status).toBe(125);
    expect(r.stderr).toMatch(/uid map/);
    expect(existsSync(t.path("ws/ran.txt"))).toBe(false);
    fake.cleanup();
  });

  it("--help lists the options; an unknown grant is a usage error (exit 2) and runs nothing", () => {
    const help = sandbox(["--help"]);
    expect(help.status).toBe(0);
    for (const f of ["--grant", "--network", "--cwd", "--settings", "--managed", "--workspace", "--status"])
      expect(help.stdout).toContain(f);
    const r = sandbox(["--grant", "everything", "--workspace", t.path("ws"), "--", "echo ran > ran.txt"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown grant `everything`/);
    expect(existsSync(t.path("ws/ran.txt"))).toBe(false);
  });

  it("refuses anything but exactly one command line after --", () => {
    expect(sandbox(["--workspace", t.path("ws"), "--", "echo", "x"]).status).toBe(2);
    expect(sandbox(["--workspace", t.path("ws")]).status).toBe(2);
    expect(sandbox(["--bogus", "--", "true"]).status).toBe(2);
  });
});

sandboxDescribe(probe)("toolgate sandbox -- LINE", () => {
  it("passes stdout, stderr and the exit code through; cwd is the first workspace", () => {
    const r = sandbox([
      "--workspace",
      t.path("ws"),
      "--workspace",
      t.dir,
      "--",
      "cat a.txt; pwd; echo err >&2; exit 7",
    ]);
    expect(r.stdout).toBe(`hello\n${t.path("ws")}\n`);
    expect(r.stderr).toBe("err\n");
    expect(r.status).toBe(7);
  });

  it("runs the line with the runtime's command environment: no BASH_ENV, no TAR_OPTIONS, git's safe.bareRepository", () => {
    const hook = t.path("bash-env.sh");
    writeFileSync(hook, "echo BASH_ENV-ran\n");
    const env = { ...process.env, BASH_ENV: hook, TAR_OPTIONS: "--checkpoint=1 --checkpoint-action=echo=TAR-ran" };
    const line =
      'tar -cf /tmp/a.tar a.txt && tar -tf /tmp/a.tar; git config --get safe.bareRepository; echo "[$TAR_OPTIONS]"';
    const r = sandbox(["--workspace", t.path("ws"), "--", line], env);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toMatch(/BASH_ENV-ran|TAR-ran/);
    expect(r.stdout).toBe("a.txt\nexplicit\n[]\n");
  });

  it("applies the policy: writes outside fail, the settings' ignore file hides its matches", () => {
    const settings = t.path("settings.json");
    writeFileSync(settings, JSON.stringify({ "toolgate.ignoreFile": ".ignore-me", "toolgate.sandbox.mode": "auto" }));
    const r = sandbox([
      "--settings",
      settings,
      "--workspace",
      t.path("ws"),
      "--",
      `cat keys.pem; echo x > ${out.dir}/f; echo x > .ignore-me`,
    ]);
    expect(r.stdout).not.toContain("SECRET");
    expect(r.stderr).toMatch(/Read-only file system/);
    expect(existsSync(`${out.dir}/f`)).toBe(false);
    expect(readFileSync(t.path("ws/.ignore-me"), "utf8")).toBe("keys.pem\n");
    // Without the settings file the ignore file has its default name, and keys.pem is readable.
    expect(sandbox(["--workspace", t.path("ws"), "--", "cat keys.pem"]).stdout).toBe("SECRET\n");
  });

  it("--grant read-only: the workspace is read-only too, only /tmp is writable; --cwd sets the directory", () => {
    const r = sandbox([
      "--grant",
      "read-only",
      "--workspace",
      t.path("ws"),
      "--cwd",
      t.dir,
      "--",
      "pwd; cat ws/a.txt; echo x > ws/new.txt; echo t > /tmp/t && cat /tmp/t",
    ]);
    expect(r.stdout).toBe(`${t.dir}
hello
t
`);
    expect(r.stderr).toMatch(/Read-only file system/);
    expect(existsSync(t.path("ws/new.txt"))).toBe(false);
    // The same line with the default grant (workspace-write) writes the workspace.
    const w = sandbox(["--workspace", t.path("ws"), "--", "echo x > new.txt"]);
    expect(w.status).toBe(0);
    expect(existsSync(t.path("ws/new.txt"))).toBe(true);
  });

  it("the home is empty but for toolchains and git config: its other folders cannot be read", () => {
    const r = sandbox(["--workspace", t.path("ws"), "--", 'ls -A "$HOME"; cat "$HOME/.npmrc"; ls "$HOME/.ssh"']);
    expect(r.stdout).not.toMatch(/^\.ssh$|^\.npmrc$|^\.claude$/m);
    expect(r.stderr).toMatch(/No such file or directory/);
  });

  it("a malformed sandbox setting is a usage error, not a looser run", () => {
    const settings = t.path("bad.json");
    writeFileSync(settings, JSON.stringify({ "toolgate.sandbox.network": "on" }));
    const r = sandbox(["--settings", settings, "--workspace", t.path("ws"), "--", "echo ran"]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
  });

  it("reports a protected path the command created", () => {
    const ws = tempTree();
    const r = sandbox(["--workspace", ws.dir, "--", "git init -q . && echo hook > .git/hooks/pre-commit"]);
    expect(r.status).toBe(4);
    expect(r.stderr).toContain(`protected path appeared: ${ws.dir}/.git (a git directory) — undone`);
    expect(existsSync(path.join(ws.dir, ".git"))).toBe(false);
    ws.cleanup();
  });
});
