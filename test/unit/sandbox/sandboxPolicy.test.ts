import { describe, expect, it } from "vitest";
import { bwrapArgs } from "../../../src/core/sandbox/bwrapArgs";
import { isCredentialVariable, scrubEnvironment } from "../../../src/core/sandbox/credentialEnv";
import { mountOrder, type SandboxPolicy } from "../../../src/core/sandbox/sandboxPolicy";

const base: SandboxPolicy = {
  writableRoots: ["/tmp/ws"],
  readOnly: ["/tmp/ws/.git/config", "/tmp/ws/.git/hooks", "/tmp/ws/.vscode"],
  hiddenFiles: ["/tmp/ws/.env"],
  hiddenDirs: ["/tmp/ws/secrets"],
  privateDirs: ["/tmp", "/run"],
  secretFiles: ["/home/u/.npmrc"],
  secretDirs: ["/home/u/.ssh"],
  network: "off",
};
const opts = { emptyFile: "/tmp/e/empty", emptyDir: "/tmp/e/empty.d", disableUserns: true, cwd: "/tmp/ws" };

/** The mount options of an argv as [flag, ...operands] tuples, in order. */
function mounts(args: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--tmpfs" || a === "--dev" || a === "--proc") out.push([a, args[++i]!]);
    else if (a.includes("bind")) out.push([a, args[++i]!, args[++i]!]);
  }
  return out;
}

describe("bubblewrap arguments", () => {
  it("isolates: user, pid, ipc, uts, net namespaces, new session, no capabilities, no nested user namespaces", () => {
    const args = bwrapArgs(base, opts);
    for (const f of ["--unshare-user", "--disable-userns", "--unshare-pid", "--unshare-ipc", "--unshare-uts"])
      expect(args).toContain(f);
    for (const f of ["--unshare-net", "--new-session", "--die-with-parent"]) expect(args).toContain(f);
    expect(args.join(" ")).toContain("--cap-drop ALL");
    expect(args.slice(-2)).toEqual(["--chdir", "/tmp/ws"]);
    expect(bwrapArgs(base, { ...opts, disableUserns: false })).not.toContain("--disable-userns");
  });

  it("mounts in an order where nothing later hides what must stay: root, /tmp, workspace, read-only, hidden, secrets", () => {
    expect(mounts(bwrapArgs(base, opts))).toEqual([
      ["--ro-bind", "/", "/"],
      ["--dev", "/dev"],
      ["--proc", "/proc"],
      ["--tmpfs", "/run"],
      ["--tmpfs", "/tmp"],
      ["--bind", "/tmp/ws", "/tmp/ws"],
      ["--ro-bind-try", "/tmp/ws/.vscode", "/tmp/ws/.vscode"],
      ["--ro-bind", "/tmp/e/empty", "/tmp/ws/.env"],
      ["--ro-bind", "/tmp/e/empty.d", "/tmp/ws/secrets"],
      ["--ro-bind-try", "/tmp/ws/.git/config", "/tmp/ws/.git/config"],
      ["--ro-bind-try", "/tmp/ws/.git/hooks", "/tmp/ws/.git/hooks"],
      ["--ro-bind", "/tmp/e/empty", "/home/u/.npmrc"],
      ["--ro-bind", "/tmp/e/empty.d", "/home/u/.ssh"],
    ]);
  });

  it("a workspace that is /tmp itself is bound after the private /tmp", () => {
    const m = mounts(
      bwrapArgs({ ...base, writableRoots: ["/tmp"], readOnly: [], hiddenDirs: [], hiddenFiles: [] }, opts),
    );
    expect(m.findIndex((x) => x[0] === "--tmpfs" && x[1] === "/tmp")).toBeLessThan(
      m.findIndex((x) => x[0] === "--bind" && x[1] === "/tmp"),
    );
  });

  it("nested roots: the parent first; a protected path in the inner root stays read-only", () => {
    const ops = mountOrder({
      ...base,
      writableRoots: ["/w/a/b", "/w/a"],
      readOnly: ["/w/a/b/.git/config"],
      hiddenFiles: [],
      hiddenDirs: [],
    });
    const order = ops.filter((o) => o.path.startsWith("/w")).map((o) => `${o.kind} ${o.path}`);
    expect(order).toEqual(["writable /w/a", "writable /w/a/b", "read-only /w/a/b/.git/config"]);
  });

  it("nothing is bound below a hidden directory: it would re-expose the real content", () => {
    const ops = mountOrder({
      ...base,
      readOnly: ["/tmp/ws/secrets/.vscode"],
      hiddenFiles: ["/tmp/ws/secrets/key.pem"],
      secretDirs: ["/tmp/ws/secrets/.ssh"],
      secretFiles: [],
    });
    expect(ops.map((o) => o.path).filter((p) => p.startsWith("/tmp/ws/secrets"))).toEqual(["/tmp/ws/secrets"]);
  });

  it("credential stores are hidden even inside a workspace root (a workspace that is $HOME)", () => {
    const m = mounts(
      bwrapArgs({ ...base, writableRoots: ["/home/u"], readOnly: [], hiddenFiles: [], hiddenDirs: [] }, opts),
    );
    const bindHome = m.findIndex((x) => x[0] === "--bind" && x[1] === "/home/u");
    const hideSsh = m.findIndex((x) => x[2] === "/home/u/.ssh");
    expect(bindHome).toBeGreaterThan(-1);
    expect(hideSsh).toBeGreaterThan(bindHome);
  });

  it("refuses relative or unnormalised paths instead of mounting somewhere unexpected", () => {
    expect(() => bwrapArgs({ ...base, hiddenFiles: ["ws/.env"] }, opts)).toThrow(/absolute/);
    expect(() => bwrapArgs({ ...base, readOnly: ["/tmp/ws/../etc"] }, opts)).toThrow(/normalised/);
  });
});

describe("credential scrubbing", () => {
  it("drops tokens, keys, secrets, passwords, cloud and agent variables; keeps the rest", () => {
    const env = {
      PATH: "/usr/bin",
      HOME: "/home/u",
      LANG: "C.UTF-8",
      PWD: "/w",
      GIT_AUTHOR_NAME: "A",
      KEYBOARD: "us",
      GH_TOKEN: "t",
      GITHUB_TOKEN: "t",
      OPENAI_API_KEY: "k",
      ANTHROPIC_API_KEY: "k",
      AWS_ACCESS_KEY_ID: "a",
      AWS_PROFILE: "p",
      DB_PASSWORD: "p",
      MY_SECRET: "s",
      NPM_TOKEN: "n",
      npm_config__authToken: "n",
      SSH_AUTH_SOCK: "/run/user/1/ssh",
      VSCODE_GIT_IPC_HANDLE: "/tmp/x.sock",
      GIT_ASKPASS: "/x/askpass.sh",
      GOOGLE_APPLICATION_CREDENTIALS: "/x.json",
      TMPDIR: "/var/folders/x",
    };
    const { env: out, removed } = scrubEnvironment(env);
    expect(Object.keys(out).sort()).toEqual(["GIT_AUTHOR_NAME", "HOME", "KEYBOARD", "LANG", "PATH", "PWD", "TMPDIR"]);
    expect(out.TMPDIR).toBe("/tmp");
    expect(removed).toContain("GH_TOKEN");
    expect(removed).toHaveLength(Object.keys(env).length - 7);
    expect(isCredentialVariable("my_service_key")).toBe(true);
    expect(isCredentialVariable("MONKEY")).toBe(false);
    // The runner's own `safe.bareRepository` pin: without its key git refuses every command.
    expect(isCredentialVariable("GIT_CONFIG_KEY_0")).toBe(false);
    expect(isCredentialVariable("GIT_CONFIG_KEY_0_TOKEN")).toBe(true);
  });
});
