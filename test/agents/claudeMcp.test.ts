/**
 * The real Claude Code 2.1.332 calling a real MCP server (stdio, `support/notesMcpServer.mjs`), with and without
 * Toolgate's hook, in bypassPermissions (where Claude Code itself asks nothing): an MCP tool with an effect runs
 * without the hook and is refused with it under the defaults; a Toolgate allow rule lets one tool through; a
 * deny rule spelled with `_` and other letter case still refuses the tool the agent names with `-`; a `file:`
 * resource (Claude Code's ReadMcpResourceTool) passes the gates of a file read, so an ignored `.env` stays out.
 * Asserted on the disk and on the tool results that reached the model.
 */
import { existsSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, removeRunFolders, runClaude, type ClaudeRun } from "./support/claudeCodeRun";

const SERVER = path.resolve(__dirname, "support/notesMcpServer.mjs");
const MCP = { "notes-server": { command: process.execPath, args: [SERVER], env: { NOTES_DIR: "__WS__" } } };
const FILES = { "notes.txt": "the note text 4471", ".env": "TOKEN=secret-8812", ".toolgateignore": ".env\n" };
const DELETE = { tool: "mcp__notes-server__delete-notes", input: {} };
const READ = { tool: "mcp__notes-server__read_note", input: {} };
const ENV_RESOURCE = { tool: "ReadMcpResourceTool", input: { server: "notes-server", uri: "file://__WS__/.env" } };
const NOTES_RESOURCE = {
  tool: "ReadMcpResourceTool",
  input: { server: "notes-server", uri: "file://__WS__/notes.txt" },
};

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
});
afterAll(() => removeRunFolders());

function expectRan(r: ClaudeRun): void {
  expect(r.server.unexpected.map((q) => `${q.method} ${q.url}`)).toEqual([]);
  expect(r.exitCode, r.stderr).not.toBeNull();
}

const run = (turns: readonly { tool: string; input: Record<string, unknown> }[], toolgate?: Record<string, unknown>) =>
  runClaude({ mode: "bypassPermissions", turns, files: FILES, mcpServers: MCP, ...(toolgate ? { toolgate } : {}) });

describe("Claude Code with an MCP server", () => {
  it("an MCP tool that deletes: runs without the hook, refused with it (the defaults ask, which this mode cannot)", async () => {
    const bare = await run([DELETE]);
    expectRan(bare);
    expect(bare.results).toEqual(["deleted"]);
    expect(existsSync(path.join(bare.ws, "notes.txt"))).toBe(false);

    const hooked = await run([DELETE], {});
    expectRan(hooked);
    expect(existsSync(path.join(hooked.ws, "notes.txt"))).toBe(true);
    // The hook's refusal (2.1.332 defers MCP tools behind ToolSearch, yet a call by name reaches the hook).
    expect(hooked.results).toEqual([expect.stringMatching(/^PreToolUse:.*Toolgate: .*\[autoApprove\.useMcp\]/)]);
  });

  it("a Toolgate allow rule lets one tool through; a deny spelled `NOTES_SERVER`/`delete_notes` refuses the other", async () => {
    const toolgate = {
      "toolgate.permissions.allow": ["mcp__notes-server__*"],
      "toolgate.permissions.deny": ["mcp__NOTES_SERVER__delete_notes"],
    };
    const r = await run([READ, DELETE], toolgate);
    expectRan(r);
    expect(r.results[0]).toContain("the note text 4471");
    expect(existsSync(path.join(r.ws, "notes.txt"))).toBe(true);
    expect(r.results[1]).toContain("[permissions.deny: mcp__NOTES_SERVER__delete_notes]");
  });

  it("a file: resource is judged as a read of that file: the ignored .env reaches the model only without the hook", async () => {
    const bare = await run([ENV_RESOURCE]);
    expectRan(bare);
    expect(bare.results.join("\n")).toContain("secret-8812");

    const toolgate = { "toolgate.autoApprove.actions": { readFiles: true, useMcp: true } };
    const hooked = await run([ENV_RESOURCE, NOTES_RESOURCE], toolgate);
    expectRan(hooked);
    expect(hooked.results[0]).not.toContain("secret-8812");
    expect(hooked.results[0]).toMatch(/^PreToolUse:.*Toolgate: .*\.env.*\[ignoreFile/);
    expect(hooked.results[1]).toContain("the note text 4471");
  });
});
