import { execSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import * as path from "node:path";
import { afterEach, expect, it } from "vitest";
import { applyUndo, undoData } from "../../../src/agent/sandbox/protectedUndo";
import { SandboxSession } from "../../../src/agent/sandbox/sandboxedSpawn";
import { tempTree, type TempTree } from "../../support/workspace";
import { sandboxDescribe } from "../../support/sandboxRequired";
import { probe, PYTHON, run, varTmpDir } from "./sandboxHarness";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A git workspace with an ignore file, a hidden secret, .vscode settings, and a fake $HOME with an SSH key. */
function fixture(
  files: Record<string, string> = {},
  git = true,
): { ws: TempTree; home: string; session: SandboxSession } {
  const ws = tempTree({
    ".toolgateignore": "secret.txt\nprivate/\n",
    "secret.txt": "TOP-SECRET-FILE\n",
    "private/notes.txt": "TOP-SECRET-DIR\n",
    ".vscode/settings.json": "{}\n",
    "src/a.txt": "hello\n",
    ...files,
  });
  const home = varTmpDir("toolgate-home-");
  mkdirSync(path.join(home.dir, ".ssh"));
  writeFileSync(path.join(home.dir, ".ssh/id_rsa"), "PRIVATE-KEY\n");
  cleanups.push(ws.cleanup, home.cleanup);
  if (git) {
    const g = (args: string) =>
      execSync(`git ${args}`, { cwd: ws.dir, stdio: "ignore", env: { ...process.env, HOME: home.dir } });
    g("init -q .");
    g("-c user.email=t@t -c user.name=t commit -q --allow-empty -m init");
  }
  const session = new SandboxSession(
    { roots: [ws.dir], ignoreFileName: ".toolgateignore", network: { kind: "off" }, home: home.dir },
    probe,
  );
  return { ws, home: home.dir, session };
}

sandboxDescribe(probe)("escape attempts from inside the sandbox (real bubblewrap)", () => {
  it("cannot write outside the workspace (read-only root; /tmp is private)", async () => {
    const { session } = fixture();
    const out = varTmpDir("toolgate-out-");
    cleanups.push(out.cleanup);
    const tmpOut = tempTree();
    cleanups.push(tmpOut.cleanup);
    const line = `echo pwned > ${out.dir}/f; echo pwned > ${tmpOut.dir}/f; echo pwned > ~/f`;
    const inside = await run(session, line, true);
    expect(inside.out).toMatch(/Read-only file system/);
    expect(existsSync(`${out.dir}/f`) || existsSync(`${tmpOut.dir}/f`)).toBe(false);
    expect(inside.report?.blocked?.cause).toBe("read-only");
    const outside = await run(session, line, false);
    expect(outside.status).toBe(0);
    expect(readFileSync(`${out.dir}/f`, "utf8")).toBe("pwned\n");
    expect(readFileSync(`${tmpOut.dir}/f`, "utf8")).toBe("pwned\n");
  });

  it("cannot write git hooks or git config, .vscode settings, or the ignore file", async () => {
    const { ws, session } = fixture();
    const attempts = [
      "echo evil > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit",
      "git config core.hooksPath /var/tmp",
      "echo '[core]' >> .git/config",
      "mv .git/hooks .git/hooks-old",
      "echo '{\"x\":1}' > .vscode/settings.json",
      "echo '{}' > .vscode/tasks.json",
      "echo '' > .toolgateignore",
      "rm -f .toolgateignore",
    ];
    const snapshot = () =>
      [".git/config", ".vscode/settings.json", ".toolgateignore"]
        .map((f) => (existsSync(ws.path(f)) ? readFileSync(ws.path(f), "utf8") : "(gone)"))
        .join("|") +
      String(existsSync(ws.path(".git/hooks/pre-commit"))) +
      String(existsSync(ws.path(".vscode/tasks.json")));
    const before = snapshot();
    for (const line of attempts) {
      const r = await run(session, line, true);
      expect(r.status, line).not.toBe(0);
      expect(r.report?.protectedChanges, line).toEqual([]);
    }
    expect(snapshot()).toBe(before);
    for (const line of attempts) expect((await run(session, line, false)).status, line).toBe(0);
    expect(snapshot()).not.toBe(before);
  });

  it("git add and git commit still work inside; ordinary commands run", async () => {
    const { ws, session } = fixture();
    const r = await run(
      session,
      "ls src && cat src/a.txt && node --version >/dev/null && npm --version >/dev/null && echo new > src/b.txt && git add src/b.txt && git -c user.email=t@t -c user.name=t commit -q -m b && git log --oneline | wc -l",
      true,
    );
    expect(r.out).toContain("a.txt");
    expect(r.out).toContain("hello");
    expect(r.out.trim().split("\n").at(-1)).toBe("2");
    expect(r.status).toBe(0);
    expect(readFileSync(ws.path("src/b.txt"), "utf8")).toBe("new\n");
    expect(r.report?.protectedChanges).toEqual([]);
  });

  it("cannot read an ignored file or directory, or the fake home's ~/.ssh/id_rsa", async () => {
    const { session } = fixture();
    const line = "cat secret.txt private/notes.txt ~/.ssh/id_rsa; ls private ~/.ssh";
    const inside = await run(session, line, true);
    expect(inside.out).not.toMatch(/TOP-SECRET|PRIVATE-KEY|^notes\.txt$|^id_rsa$/m);
    const outside = await run(session, line, false);
    expect(outside.out).toMatch(/TOP-SECRET-FILE[\s\S]*TOP-SECRET-DIR[\s\S]*PRIVATE-KEY/);
    expect(outside.out).toMatch(/^notes\.txt$/m);
    expect(outside.out).toMatch(/^id_rsa$/m);
  });

  it("cannot write into hidden paths either", async () => {
    const { ws, session } = fixture();
    const r = await run(session, "echo x > secret.txt; echo x > private/new.txt", true);
    expect(r.out).toMatch(/Read-only file system/);
    expect(readFileSync(ws.path("secret.txt"), "utf8")).toBe("TOP-SECRET-FILE\n");
    expect(existsSync(ws.path("private/new.txt"))).toBe(false);
  });

  it("cannot connect to a listener on 127.0.0.1", async () => {
    const { session } = fixture();
    const server: Server = createServer((s) => s.end("hello from the host\n"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    cleanups.push(() => server.close());
    const port = (server.address() as { port: number }).port;
    const line = `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`;
    const inside = await run(session, line, true);
    expect(inside.status).not.toBe(0);
    expect(inside.out).not.toContain("hello from the host");
    expect(inside.report?.blocked?.cause).toBe("network");
    const outside = await run(session, line, false);
    expect(outside.out).toContain("hello from the host");
  });

  it("git init and a planted hook in a workspace without .git are reported by the after-run compare", async () => {
    const { ws, session } = fixture({}, false);
    const line =
      "git init -q . && printf '#!/bin/sh\\necho pwned\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit";
    const r = await run(session, line, true);
    expect(r.status).toBe(0);
    const changes = r.report?.protectedChanges ?? [];
    expect(changes.map((c) => [c.kind, c.path, c.what])).toEqual([["added", ws.path(".git"), "a git directory"]]);
    expect(applyUndo(undoData(changes[0]!, r.report!.before))).toBe("removed");
    expect(existsSync(ws.path(".git"))).toBe(false);
  });

  it("a hooks directory core.hooksPath names is read-only, and a new file include.path names is reported", async () => {
    const { ws, session } = fixture({ "scripts/hooks/pre-commit": "#!/bin/sh\n" });
    execSync("git config core.hooksPath scripts/hooks && git config include.path ../team.gitconfig", { cwd: ws.dir });
    const hook = "echo 'echo planted' >> scripts/hooks/pre-commit";
    const inside = await run(session, hook, true);
    expect(inside.out).toMatch(/Read-only file system/);
    expect(readFileSync(ws.path("scripts/hooks/pre-commit"), "utf8")).toBe("#!/bin/sh\n");
    const planted = await run(session, "printf '[core]\\n\\tfsmonitor = ./x\\n' > team.gitconfig", true);
    const changes = planted.report?.protectedChanges ?? [];
    expect(changes.map((c) => [c.kind, c.path])).toEqual([["added", ws.path("team.gitconfig")]]);
    expect(applyUndo(undoData(changes[0]!, planted.report!.before))).toBe("removed");
    expect(existsSync(ws.path("team.gitconfig"))).toBe(false);
    // Without the sandbox the same write goes through: the test can fail.
    expect((await run(session, hook, false)).status).toBe(0);
  });

  it("a new hook-manager, dev container or CI configuration is reported by the after-run compare", async () => {
    const { ws, session } = fixture();
    const line =
      "printf 'repos: []\\n' > .pre-commit-config.yaml; mkdir .devcontainer; echo '{}' > .devcontainer/devcontainer.json; echo 'x: 1' > .gitlab-ci.yml";
    const r = await run(session, line, true);
    const changes = r.report?.protectedChanges ?? [];
    expect(changes.map((c) => [c.kind, c.path, c.what])).toEqual([
      ["added", ws.path(".devcontainer"), "a dev container configuration"],
      ["added", ws.path(".gitlab-ci.yml"), "a CI configuration"],
      ["added", ws.path(".pre-commit-config.yaml"), "git hook configuration"],
    ]);
  });

  it("moving the read-only .git aside and planting a new one is reported too", async () => {
    const { ws, session } = fixture();
    const r = await run(session, "mv .git .git-old && git init -q . && echo evil > .git/hooks/pre-commit", true);
    expect(r.status).toBe(0);
    const changes = r.report?.protectedChanges ?? [];
    expect(changes.map((c) => c.path)).toContain(ws.path(".git"));
    for (const c of changes) applyUndo(undoData(c, r.report!.before));
    expect(existsSync(ws.path(".git/hooks/pre-commit"))).toBe(false);
  });

  it("cannot write through a symlink pointing out of the workspace, old or new", async () => {
    const out = varTmpDir("toolgate-out-");
    cleanups.push(out.cleanup);
    const { ws, session } = fixture();
    symlinkSync(out.dir, ws.path("out"));
    const line = `echo x > out/f1; ln -s ${out.dir} out2 && echo x > out2/f2`;
    await run(session, line, true);
    expect(existsSync(`${out.dir}/f1`) || existsSync(`${out.dir}/f2`)).toBe(false);
    await run(session, "rm -f out2", false);
    await run(session, line, false);
    expect(existsSync(`${out.dir}/f1`) && existsSync(`${out.dir}/f2`)).toBe(true);
  });

  it("cannot reach the host through /proc/self/root or /proc/<pid>/cwd of a process outside", async () => {
    const out = varTmpDir("toolgate-out-");
    cleanups.push(out.cleanup);
    const { session } = fixture();
    const sleeper = spawn("sleep", ["30"], { cwd: out.dir, stdio: "ignore" });
    cleanups.push(() => sleeper.kill("SIGKILL"));
    const line = `echo x > /proc/self/root${out.dir}/a; echo x > /proc/${sleeper.pid}/cwd/b; echo x > /proc/1/root${out.dir}/c`;
    const inside = await run(session, `${line}; [ -e /proc/${sleeper.pid} ] && echo VISIBLE`, true);
    expect(inside.out).not.toContain("VISIBLE");
    expect(["a", "b", "c"].filter((f) => existsSync(`${out.dir}/${f}`))).toEqual([]);
    await run(session, line, false);
    expect(existsSync(`${out.dir}/a`) && existsSync(`${out.dir}/b`)).toBe(true);
  });

  it("cannot inject keystrokes into its terminal with TIOCSTI (a new session)", async () => {
    let legacy = "0";
    try {
      legacy = readFileSync("/proc/sys/dev/tty/legacy_tiocsti", "utf8").trim();
    } catch {
      /* older kernels allow TIOCSTI and have no switch */
      legacy = "1";
    }
    const { session } = fixture();
    const inject = `import fcntl, termios; fcntl.ioctl(0, termios.TIOCSTI, b"x"); print("INJECTED")`;
    // A pty whose slave is the controlling terminal of the command, as in a person's terminal.
    const onPty = (argv: readonly string[], env: Record<string, string>) =>
      new Promise<string>((resolve) => {
        const driver = `
import os, pty, sys, json, termios, fcntl
argv = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(argv[0], argv, json.loads(sys.argv[2]))
out = b""
while True:
    try:
        d = os.read(fd, 4096)
    except OSError:
        break
    if not d:
        break
    out += d
os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace"))
`;
        const p = spawn(PYTHON, ["-c", driver, JSON.stringify(argv), JSON.stringify(env)], {
          stdio: ["ignore", "pipe", "pipe"],
        });
        let text = "";
        p.stdout.on("data", (b: Buffer) => (text += b.toString()));
        p.stderr.on("data", (b: Buffer) => (text += b.toString()));
        p.on("close", () => resolve(text));
      });
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: session.input.home! };
    const prepared = session.prepare({ file: PYTHON, args: ["-c", inject], env, cwd: session.input.roots[0]! });
    const inside = await onPty([prepared.file, ...prepared.args], prepared.env);
    prepared.afterRun({ exitCode: 1, output: inside });
    expect(inside).not.toContain("INJECTED");
    if (legacy === "1") expect(await onPty([PYTHON, "-c", inject], env)).toContain("INJECTED");
  });

  it("cannot mount or create namespaces inside", async () => {
    const { ws, session } = fixture();
    mkdirSync(ws.path("mnt"));
    const inside = await run(
      session,
      "mount -t tmpfs none mnt; echo m=$?; unshare -r true; echo u=$?; unshare -m true; echo n=$?",
      true,
    );
    expect(inside.out).toMatch(/m=[1-9]/);
    expect(inside.out).toMatch(/u=[1-9]/);
    expect(inside.out).toMatch(/n=[1-9]/);
    const outside = await run(session, "unshare -r true; echo u=$?", false);
    expect(outside.out).toContain("u=0");
    if (process.getuid?.() === 0) {
      const m = await run(session, "mount -t tmpfs none mnt && umount mnt; echo m=$?", false);
      expect(m.out).toContain("m=0");
    }
  });

  it("scrubs credentials from the environment", async () => {
    const { session } = fixture();
    const env = { GH_TOKEN: "ghp_secret", OPENAI_API_KEY: "sk-secret", AWS_SECRET_ACCESS_KEY: "aws", KEEP_ME: "kept" };
    const line = "env";
    const inside = await run(session, line, true, env);
    expect(inside.out).not.toMatch(/ghp_secret|sk-secret|aws\b/);
    expect(inside.out).toContain("KEEP_ME=kept");
    expect((await run(session, line, false, env)).out).toContain("ghp_secret");
  });

  it("a failed start is reported as such, not as the command's failure", async () => {
    const fake = varTmpDir("toolgate-fakebwrap-");
    cleanups.push(fake.cleanup);
    const exe = path.join(fake.dir, "bwrap");
    writeFileSync(exe, "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n", {
      mode: 0o755,
    });
    const { ws } = fixture();
    const broken = new SandboxSession(
      { roots: [ws.dir], ignoreFileName: ".toolgateignore", network: { kind: "off" } },
      { ...probe, executable: exe },
    );
    const r = await run(broken, "echo ran > ran.txt", true);
    expect(r.report?.startFailure).toMatch(/No permissions/);
    expect(existsSync(ws.path("ran.txt"))).toBe(false);
  });
});
