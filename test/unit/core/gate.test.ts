import { afterAll, describe, expect, it } from "vitest";
import { TaskLimits } from "../../../src/core/limits";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

const t = tempTree(
  {
    "ws/src/a.ts": "a",
    "ws/.env": "SECRET=1",
    "ws/secrets/key.pem": "k",
    "ws/docs/keep.md": "k",
    "ws/.toolgateignore": ".env\nsecrets/\ndocs/*\n!docs/keep.md\n",
    "ws2/b.ts": "b",
    "outside/x.txt": "x",
  },
  { "ws/escape": "outside", "ws/to-secrets": "ws/secrets" },
);
afterAll(() => t.cleanup());
const roots = [t.path("ws"), t.path("ws2")];

const read = (path: string) => call("read_file", { path });
const write = (path: string, content = "x") => call("write_to_file", { path, content });
const cmd = (command: string, extra: Record<string, unknown> = {}) => call("execute_command", { command, ...extra });

describe("1. validate", () => {
  it("denies missing, blank or mistyped params, and unknown tools", async () => {
    const g = await gateWith({}, roots);
    expect(g.decide(call("read_file", {})).rule).toBe("validator:missing-param");
    expect(g.decide(call("read_file", { path: "   " })).decision).toBe("deny");
    expect(g.decide(call("read_file", { path: 3 })).rule).toBe("validator:param-type");
    expect(g.decide(call("delete_everything", { path: "x" })).rule).toBe("validator:unknown-tool");
    expect(g.decide(call("write_to_file", { path: "a.txt" })).rule).toBe("validator:missing-param");
    expect(g.decide(call("use_mcp_tool", { server_name: "s", tool_name: "t", arguments: "[1" })).rule).toBe(
      "validator:mcp-arguments",
    );
  });

  it("lets write_to_file write an empty file", async () => {
    const g = await gateWith({ "toolgate.autoApprove.actions": { editFiles: true } }, roots);
    expect(g.decide(write("src/empty.ts", "")).decision).toBe("allow");
  });

  it("denies ignored paths with a message the model can act on, negation included", async () => {
    const g = await gateWith({}, roots);
    const d = g.decide(read(".env"));
    expect(d).toMatchObject({ decision: "deny", rule: "ignoreFile: .toolgateignore" });
    expect(d.reason).toContain(".toolgateignore");
    expect(g.decide(read("secrets/key.pem")).decision).toBe("deny");
    expect(g.decide(call("list_files", { path: "secrets" })).decision).toBe("deny");
    expect(g.decide(read("docs/other.md")).decision).toBe("deny");
    expect(g.decide(read("docs/keep.md")).decision).toBe("allow");
  });

  it("denies a symlink that points into an ignored folder", async () => {
    const g = await gateWith({}, roots);
    expect(g.decide(read("to-secrets/key.pem")).decision).toBe("deny");
  });

  it("rejects NUL bytes and URL schemes in paths", async () => {
    const g = await gateWith({}, roots);
    expect(g.decide(read("src/a.ts\0.png")).rule).toBe("validator:path");
    expect(g.decide(read("file:///etc/passwd")).rule).toBe("validator:path");
  });
});

describe("2. hard refusals hold in every mode", () => {
  for (const mode of ["normal", "plan", "auto"]) {
    it(`deny rules win in ${mode} mode, even with approve-all`, async () => {
      const g = await gateWith(
        {
          "toolgate.mode": mode,
          "toolgate.autoApprove.all": true,
          "toolgate.permissions.deny": ["Read(src/**)", "Bash"],
          "toolgate.permissions.allow": ["Read(src/**)"],
        },
        roots,
      );
      expect(g.decide(read("src/a.ts"))).toMatchObject({ decision: "deny", rule: "permissions.deny: Read(src/**)" });
      expect(g.decide(cmd("ls")).decision).toBe("deny");
      expect(g.decide(call("attempt_completion", { result: "done", command: "ls" })).decision).toBe("deny");
    });
  }

  it("a denied program is refused anywhere in a command line", async () => {
    const g = await gateWith({ "toolgate.commands.deny": ["rm"], "toolgate.mode": "auto" }, roots);
    expect(g.decide(cmd("rm -rf build")).decision).toBe("deny");
    expect(g.decide(cmd("ls; rm -rf build")).decision).toBe("deny");
  });
});

describe("3. modes", () => {
  it("plan refuses edits and hides the edit tools", async () => {
    const g = await gateWith({ "toolgate.mode": "plan", "toolgate.autoApprove.all": true }, roots);
    expect(g.decide(write("src/b.ts")).decision).toBe("deny");
    expect(g.decide(call("replace_in_file", { path: "src/a.ts", diff: "x" })).decision).toBe("deny");
    expect(g.deniedTools()).toEqual(expect.arrayContaining(["write_to_file", "replace_in_file"]));
    expect(g.decide(read("src/a.ts")).decision).toBe("allow");
  });

  it("plan refuses commands that are not proven read-only", async () => {
    const g = await gateWith({ "toolgate.mode": "plan", "toolgate.commands.allow": ["npm test"] }, roots);
    expect(g.decide(cmd("npm test")).rule).toBe("mode:plan");
  });

  it("auto runs what is not refused, but never-auto tools still wait", async () => {
    const g = await gateWith({ "toolgate.mode": "auto" }, roots);
    expect(g.decide(write("../outside/y.txt")).decision).toBe("allow");
    expect(g.decide(cmd("curl https://x.test")).decision).toBe("allow");
    expect(g.decide(call("ask_followup_question", { question: "?" })).decision).toBe("ask");
    expect(g.decide(call("new_task", { context: "c" })).decision).toBe("ask");
  });
});

describe("4. untrusted, ask rules, protected paths, limits", () => {
  it("nothing is auto-approved in an untrusted workspace, whatever the switches", async () => {
    const g = await gateWith({ "toolgate.mode": "auto", "toolgate.autoApprove.all": true }, roots, { trusted: false });
    expect(g.decide(read("src/a.ts"))).toMatchObject({ decision: "ask", rule: "workspace:untrusted" });
    expect(g.decide(read(".env")).decision).toBe("deny");
  });

  it("ask rules ask even when a switch would allow", async () => {
    const g = await gateWith({ "toolgate.permissions.ask": ["Read(src/a.ts)"] }, roots);
    expect(g.decide(read("src/a.ts"))).toMatchObject({ decision: "ask", rule: "permissions.ask: Read(src/a.ts)" });
  });

  it("protected paths ask at any depth, in every mode", async () => {
    for (const mode of ["normal", "auto"]) {
      const g = await gateWith({ "toolgate.mode": mode, "toolgate.autoApprove.actions": { editFiles: true } }, roots);
      for (const p of [
        ".vscode/settings.json",
        "pkg/.vscode/tasks.json",
        ".git/hooks/pre-commit",
        "a/b/.git/config",
        ".github/workflows/ci.yml",
        "x/.husky/pre-push",
        ".pre-commit-config.yaml",
        "lefthook.yml",
        ".devcontainer/devcontainer.json",
        ".devcontainer.json",
        ".gitlab-ci.yml",
        ".circleci/config.yml",
        "ci/azure-pipelines.yml",
        "Jenkinsfile",
        ".toolgateignore",
        "sub/.toolgateignore",
        ".mcp.json",
        ".VSCODE/Settings.JSON",
      ]) {
        expect(g.decide(write(p)).decision, `${mode} ${p}`).toBe("ask");
      }
      expect(g.decide(write("src/ok.ts")).decision).toBe("allow");
    }
  });

  it("maxRequests: the third request asks until the person resets", async () => {
    const g = await gateWith({ "toolgate.autoApprove.maxRequests": 2 }, roots);
    expect(g.decide(read("src/a.ts")).decision).toBe("allow");
    expect(g.decide(read("src/a.ts")).decision).toBe("allow");
    expect(g.decide(read("src/a.ts"))).toMatchObject({ decision: "ask", rule: "limits.maxRequests" });
    g.resetLimits();
    expect(g.decide(read("src/a.ts")).decision).toBe("allow");
  });

  it("maxCost is shared by a task tree", async () => {
    const limits = new TaskLimits(0, 1);
    const parent = await gateWith({}, roots, { limits });
    const child = await gateWith({}, roots, { limits });
    parent.recordCost(0.6);
    child.recordCost(0.5);
    expect(child.decide(read("src/a.ts"))).toMatchObject({ decision: "ask", rule: "limits.maxCost" });
    expect(parent.decide(read("src/a.ts")).decision).toBe("ask");
  });
});

describe("5. auto-approve tiers", () => {
  it("defaults: read inside yes, outside no; edits ask; safe commands run", async () => {
    const g = await gateWith({}, roots);
    expect(g.decide(read("src/a.ts")).decision).toBe("allow");
    expect(g.decide(read(t.path("ws2/b.ts"))).decision).toBe("allow");
    expect(g.decide(read("../outside/x.txt")).decision).toBe("ask");
    expect(g.decide(read("escape/x.txt")).decision).toBe("ask");
    expect(g.decide(write("src/a.ts")).decision).toBe("ask");
    expect(g.decide(call("web_fetch", { url: "https://example.com" })).decision).toBe("ask");
  });

  it("external needs both switches: local && approveLocal || external && approveLocal && approveExternal", async () => {
    const onlyExternal = await gateWith(
      { "toolgate.autoApprove.actions": { readFiles: false, readFilesExternally: true } },
      roots,
    );
    expect(onlyExternal.decide(read("../outside/x.txt")).decision).toBe("ask");
    expect(onlyExternal.decide(read("src/a.ts")).decision).toBe("ask");
    const both = await gateWith(
      { "toolgate.autoApprove.actions": { readFiles: true, readFilesExternally: true } },
      roots,
    );
    expect(both.decide(read("../outside/x.txt")).decision).toBe("allow");
  });

  it("the master switch turns off the fine-grained tier but keeps approve-all", async () => {
    const off = await gateWith({ "toolgate.autoApprove.enabled": false }, roots);
    expect(off.decide(read("src/a.ts"))).toMatchObject({ decision: "ask", rule: "autoApprove.enabled" });
    const all = await gateWith({ "toolgate.autoApprove.enabled": false, "toolgate.autoApprove.all": true }, roots);
    expect(all.decide(write("../outside/z.txt")).decision).toBe("allow");
  });

  it("allow rules approve the calls they name and nothing else", async () => {
    const g = await gateWith({ "toolgate.permissions.allow": ["Edit(src/**)"] }, roots);
    expect(g.decide(write("src/new.ts")).decision).toBe("allow");
    expect(g.decide(write("lib/new.ts")).decision).toBe("ask");
    expect(g.decide(write("escape/new.ts")).decision).toBe("ask");
  });

  it("MCP tools need useMcp AND the tool in alwaysAllow; resources need useMcp", async () => {
    const servers = { ev: { command: "node", alwaysAllow: ["echo"], disabledTools: ["gone"] } };
    const g = await gateWith(
      { "toolgate.mcpServers": servers, "toolgate.autoApprove.actions": { useMcp: true } },
      roots,
    );
    expect(g.decide(call("use_mcp_tool", { server_name: "ev", tool_name: "echo", arguments: "{}" })).decision).toBe(
      "allow",
    );
    expect(g.decide(call("use_mcp_tool", { server_name: "ev", tool_name: "add", arguments: "{}" })).decision).toBe(
      "ask",
    );
    expect(g.decide(call("use_mcp_tool", { server_name: "ev", tool_name: "gone" })).decision).toBe("deny");
    expect(g.decide(call("use_mcp_tool", { server_name: "nope", tool_name: "echo" })).decision).toBe("deny");
    expect(g.decide(call("access_mcp_resource", { server_name: "ev", uri: "test://x" })).decision).toBe("allow");
    const noMcp = await gateWith({ "toolgate.mcpServers": servers }, roots);
    expect(noMcp.decide(call("use_mcp_tool", { server_name: "ev", tool_name: "echo" })).decision).toBe("ask");
  });

  it("a model's requires_approval only tightens", async () => {
    const g = await gateWith({ "toolgate.commands.allow": ["npm test"] }, roots);
    expect(g.decide(cmd("npm test")).decision).toBe("allow");
    expect(g.decide(cmd("npm test", { requires_approval: true })).decision).toBe("ask");
    expect(g.decide(cmd("npm publish", { requires_approval: false })).decision).toBe("ask");
  });

  it("web fetches of loopback, private and metadata addresses ask even with webFetch on", async () => {
    const g = await gateWith({ "toolgate.autoApprove.actions": { webFetch: true } }, roots);
    expect(g.decide(call("web_fetch", { url: "https://example.com/docs" })).decision).toBe("allow");
    for (const url of [
      "http://localhost:8080/",
      "http://127.0.0.1/",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/",
      "http://10.1.2.3/",
      "http://192.168.0.1",
      "http://0x7f000001/",
      "http://app.internal/",
    ]) {
      expect(g.decide(call("web_fetch", { url })).decision, url).toBe("ask");
    }
    // A URL the parser refuses has no host to check (a link-local address with a zone): refused, never allowed.
    for (const url of ["http://[fe80::1%25eth0]/", "http://[fe80::1%eth0]/", "http://exa mple.com/"]) {
      const d = g.decide(call("web_fetch", { url }));
      expect({ url, d: d.decision }).toEqual({ url, d: "deny" });
      expect(d.reason).toContain("not valid");
    }
  });

  it("completion without a command runs nothing and is allowed", async () => {
    const g = await gateWith({}, roots);
    expect(g.decide(call("attempt_completion", { result: "done" })).decision).toBe("allow");
  });
});

describe("headless and settings errors", () => {
  it("headless turns every ask into a deny that keeps the reason", async () => {
    const g = await gateWith({}, roots, { headless: true });
    const d = g.decide(write("src/a.ts"));
    expect(d.decision).toBe("deny");
    expect(d.reason).toContain("editing files inside the workspace is not auto-approved");
    expect(g.decide(read("src/a.ts")).decision).toBe("allow");
  });

  it("an invalid rule means nothing is auto-approved, while denies still hold", async () => {
    const g = await gateWith({ "toolgate.permissions.deny": ["Read(.env)", "Frobnicate(x)"] }, roots);
    expect(g.errors.length).toBe(1);
    expect(g.decide(read("src/a.ts"))).toMatchObject({ decision: "ask", rule: "settings:invalid" });
  });
});

describe("explain", () => {
  it("traces the steps that led to a decision", async () => {
    const g = await gateWith({}, roots);
    const e = g.explain(read("src/a.ts"));
    expect(e.decision.decision).toBe("allow");
    expect(e.trace.join("\n")).toMatch(/1 validate[\s\S]*2 refusals[\s\S]*3 hard asks/);
  });
});

describe("commands that read a directory recursively", () => {
  it("ask when the directory holds a file the ignore file excludes, and run when it does not", async () => {
    const g = await gateWith({}, roots);
    expect(g.decide(cmd("grep -rn x src 2>/dev/null")).decision).toBe("allow");
    const all = g.decide(cmd("grep -rn SECRET ."));
    expect(all.decision).toBe("ask");
    expect(all.reason).toMatch(/\.env|secrets/);
    expect(g.decide(cmd("rg SECRET")).decision).toBe("ask");
    // Listing names is not reading content: ls and find still run.
    expect(g.decide(cmd("ls -la")).decision).toBe("allow");
    expect(g.decide(cmd("find . -name '*.ts'")).decision).toBe("allow");
  });
});

describe("recursive reads and symbolic links below the directory", () => {
  it("a link to an ignored file or to a directory makes the read ask", async () => {
    const lt = tempTree(
      {
        "w/src/a.ts": "a",
        "w/private/key": "k",
        "w/.env": "s",
        "w/.toolgateignore": "private/\n.env\n",
        "w/lib/b.ts": "b",
      },
      { "w/src/env-link": "w/.env", "w/lib/dir-link": "w/private" },
    );
    try {
      const g = await gateWith({}, [lt.path("w")]);
      expect(g.decide(cmd("grep -R x src")).reason).toMatch(/env-link/);
      expect(g.decide(cmd("grep -R x src")).decision).toBe("ask");
      expect(g.decide(cmd("grep -R x lib")).decision).toBe("ask");
      expect(g.decide(cmd("grep -r x src/a.ts")).decision).toBe("allow");
    } finally {
      lt.cleanup();
    }
  });
});
