import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import {
  claudeRuleFor,
  claudeSettingsPlaces,
  commandCandidates,
  specifierMatches,
  type ClaudeSettingsPlaces,
} from "../../../src/cli/hooks/claudePermissions";

function places(files: Record<string, unknown>): ClaudeSettingsPlaces & { root: string } {
  const root = mkdtempSync(path.join(tmpdir(), "claude-perms-"));
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  }
  return {
    root,
    userDirs: [path.join(root, "home/.claude")],
    projectDirs: [path.join(root, "proj")],
    managedDir: path.join(root, "etc/claude-code"),
  };
}

const deny = (...rules: string[]) => ({ permissions: { deny: rules } });
const ask = (...rules: string[]) => ({ permissions: { ask: rules } });

describe("Claude Code's rule syntax", () => {
  it("matches bare tools, exact commands, word prefixes and globs as Claude Code documents them", () => {
    expect(specifierMatches(undefined, "anything")).toBe(true);
    expect(specifierMatches("*", "anything")).toBe(true);
    expect(specifierMatches("npm install", "npm install")).toBe(true);
    expect(specifierMatches("npm install", "npm install x")).toBe(false);
    expect(specifierMatches("git push:*", "git push")).toBe(true);
    expect(specifierMatches("git push:*", "git push --force origin")).toBe(true);
    expect(specifierMatches("git push:*", "git pushx")).toBe(false);
    expect(specifierMatches("ls *", "ls")).toBe(true);
    expect(specifierMatches("ls *", "ls -la")).toBe(true);
    expect(specifierMatches("git * main", "git push origin main")).toBe(true);
    expect(specifierMatches("git * main", "git push origin dev")).toBe(false);
  });

  it("tries every piece of a chain, every word onward, and the line without quotes", () => {
    const c = commandCandidates(`ls && FOO=1 timeout 5 "g"it push; echo $(rm -rf x)`);
    expect(c).toContain("git push");
    expect(c).toContain("rm -rf x");
    expect(c).toContain("ls");
  });
});

describe("Claude Code's own deny and ask rules before the rewrite", () => {
  it("finds a deny in every settings file Claude Code reads: managed, drop-in, user, project, local", () => {
    const cases: Record<string, string> = {
      "etc/claude-code/managed-settings.json": "managed-settings.json",
      "etc/claude-code/managed-settings.d/10-team.json": "10-team.json",
      "home/.claude/settings.json": "home/.claude/settings.json",
      "proj/.claude/settings.json": "proj/.claude/settings.json",
      "proj/.claude/settings.local.json": "settings.local.json",
    };
    for (const [file, named] of Object.entries(cases)) {
      const p = places({ [file]: deny("Bash(git push:*)") });
      const hit = claudeRuleFor("git status && git push origin", ["Bash"], p);
      expect(hit?.decision, file).toBe("deny");
      expect(hit?.reason).toContain(named);
      expect(hit?.reason).toContain("`Bash(git push:*)`");
      expect(claudeRuleFor("git status", ["Bash"], p), file).toBeUndefined();
    }
  });

  it("deny beats ask, ask is reported, and rules for other tools are not Bash's", () => {
    const p = places({
      "home/.claude/settings.json": ask("Bash(curl:*)"),
      "proj/.claude/settings.json": { permissions: { deny: ["Read(.env)", "Bash(curl http://evil*)"] } },
    });
    expect(claudeRuleFor("curl http://evil/x", ["Bash"], p)?.decision).toBe("deny");
    expect(claudeRuleFor("curl http://ok/x", ["Bash"], p)?.decision).toBe("ask");
    expect(claudeRuleFor("cat .env", ["Bash"], p)).toBeUndefined();
  });

  it("a bare Bash deny or ask covers every command", () => {
    expect(claudeRuleFor("ls", ["Bash"], places({ "proj/.claude/settings.json": deny("Bash") }))?.decision).toBe(
      "deny",
    );
    expect(claudeRuleFor("ls", ["Bash"], places({ "proj/.claude/settings.json": ask("Bash(*)") }))?.decision).toBe(
      "ask",
    );
  });

  it("fails closed: an unreadable settings file or an unreadable Bash rule asks", () => {
    const broken = claudeRuleFor("ls", ["Bash"], places({ "proj/.claude/settings.json": "{ not json" }));
    expect(broken?.decision).toBe("ask");
    expect(broken?.reason).toMatch(/could not be read/);
    const shape = claudeRuleFor(
      "ls",
      ["Bash"],
      places({ "home/.claude/settings.json": { permissions: { deny: "Bash" } } }),
    );
    expect(shape?.decision).toBe("ask");
    const rule = claudeRuleFor("ls", ["Bash"], places({ "proj/.claude/settings.json": deny("Bash(git push") }));
    expect(rule?.decision).toBe("ask");
    expect(rule?.reason).toContain("Bash(git push");
  });

  it("no files, no rules: nothing to add", () => {
    expect(claudeRuleFor("rm -rf /", ["Bash"], places({}))).toBeUndefined();
  });

  it("reads $CLAUDE_CONFIG_DIR as well as ~/.claude, and the platform's managed folder", () => {
    const p = claudeSettingsPlaces({ HOME: "/h", CLAUDE_CONFIG_DIR: "/cfg" }, ["/proj"]);
    expect(p.userDirs).toEqual(["/cfg", "/h/.claude"]);
    expect(p.projectDirs).toEqual(["/proj"]);
    if (process.platform === "linux") expect(p.managedDir).toBe("/etc/claude-code");
  });
});
