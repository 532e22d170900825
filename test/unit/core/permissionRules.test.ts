import { describe, expect, it } from "vitest";
import { parseRule, ruleMatches } from "../../../src/core/permissionRules";
import { repairMcpToolName } from "../../../src/core/mcp";
import { WorkspacePaths } from "../../../src/core/paths";

const paths = new WorkspacePaths(["/ws"], { realpath: (p) => p, entry: () => "other", readlink: () => undefined });
const at = (p: string) => {
  const r = paths.resolve(p);
  if (!r.ok) throw new Error(r.reason);
  return r.path;
};
const rule = (s: string) => {
  const r = parseRule(s, "deny", "settings");
  if (!r.ok) throw new Error(r.error);
  return r.rule;
};

describe("permission rules", () => {
  it("expands aliases to tools", () => {
    expect(rule("Read").tools).toEqual(["read_file", "list_files", "search_files"]);
    expect(rule("Edit(src/**)").tools).toEqual(["write_to_file", "replace_in_file"]);
    expect(rule("Bash(npm test)").tools).toEqual(["execute_command"]);
    expect(rule("read_file").tools).toEqual(["read_file"]);
  });

  it("rejects malformed rules with a clear message", () => {
    for (const bad of ["Read(", "Frob(x)", "Read()", "mcp__", "mcp__s__t(x)", "two words"]) {
      expect(parseRule(bad, "allow", "settings").ok, bad).toBe(false);
    }
  });

  it("globs match the canonical workspace-relative path", () => {
    const r = rule("Read(src/**)");
    expect(ruleMatches(r, { tool: "read_file", path: at("src/a/b.ts") }, false)).toBe(true);
    expect(ruleMatches(r, { tool: "read_file", path: at("./src/../src/x.ts") }, false)).toBe(true);
    expect(ruleMatches(r, { tool: "read_file", path: at("lib/x.ts") }, false)).toBe(false);
    expect(ruleMatches(rule("Read(**/.env)"), { tool: "read_file", path: at("a/b/.env") }, false)).toBe(true);
    expect(ruleMatches(rule("Read(/etc/**)"), { tool: "read_file", path: at("/etc/passwd") }, false)).toBe(true);
  });

  it("names MCP tools and whole servers", () => {
    const one = rule("mcp__ev__echo");
    const all = rule("mcp__ev__*");
    const server = rule("mcp__ev");
    const echo = { tool: "use_mcp_tool" as const, mcp: { server: "ev", tool: "echo" } };
    const add = { tool: "use_mcp_tool" as const, mcp: { server: "ev", tool: "add" } };
    expect(ruleMatches(one, echo, false)).toBe(true);
    expect(ruleMatches(one, add, false)).toBe(false);
    expect(ruleMatches(all, add, false)).toBe(true);
    expect(ruleMatches(server, { tool: "access_mcp_resource", mcp: { server: "ev" } }, false)).toBe(true);
    expect(ruleMatches(server, { tool: "use_mcp_tool", mcp: { server: "other", tool: "echo" } }, false)).toBe(false);
  });

  it("WebFetch(domain:) matches the host and its subdomains only", () => {
    const r = rule("WebFetch(domain:example.com)");
    expect(ruleMatches(r, { tool: "web_fetch", arg: "https://docs.example.com/a" }, false)).toBe(true);
    expect(ruleMatches(r, { tool: "web_fetch", arg: "https://example.com.evil.test/" }, false)).toBe(false);
    expect(ruleMatches(r, { tool: "web_fetch", arg: "https://evil.test/?example.com" }, false)).toBe(false);
  });
});

describe("MCP name repair", () => {
  it("repairs hyphen/underscore only onto a unique real tool, exact names first", () => {
    expect(repairMcpToolName("get-weather", ["get_weather", "echo"])).toBe("get_weather");
    expect(repairMcpToolName("get-weather", ["get-weather", "get_weather"])).toBe("get-weather");
    expect(repairMcpToolName("a-b", ["a_b", "a-b_"])).toBe("a_b");
    expect(repairMcpToolName("a-b", ["x"])).toBeUndefined();
  });
});
