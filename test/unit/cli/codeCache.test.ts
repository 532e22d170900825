/**
 * V8's code cache for the CLI's bundles (src/cli/codeCache.ts). What a person relies on: the cache makes a
 * hook faster and never changes an answer. The CLI is built with the real build script into a temp folder and
 * run as `toolgate` runs; every answer with a cache (kept, corrupt, truncated, foreign, open to others, of an
 * older build) is the answer without one, and only an intact entry of this very source is given to V8.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, chmodSync, existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { codeCacheDir, decodeEntry, encodeEntry } from "../../../src/cli/codeCache";
import { splitCliBuild } from "../../support/cliBuild";

describe("a code cache entry", () => {
  const data = Buffer.from(Array.from({ length: 4000 }, (_, i) => i % 251));
  const entry = encodeEntry("a".repeat(64), data);

  it("gives back V8's data for the same source, and nothing for another source, a damaged or a foreign one", () => {
    expect(decodeEntry(entry, "a".repeat(64))).toEqual({ data });
    expect(decodeEntry(entry, "b".repeat(64))).toEqual({ reason: "another source" });
    const flipped = Buffer.from(entry);
    flipped.writeUInt8(flipped.readUInt8(flipped.length - 1000) ^ 0x40, flipped.length - 1000);
    expect(decodeEntry(flipped, "a".repeat(64))).toEqual({ reason: "corrupt" });
    expect(decodeEntry(entry.subarray(0, entry.length - 1), "a".repeat(64))).toEqual({ reason: "corrupt" });
    expect(decodeEntry(Buffer.concat([entry, Buffer.from([0])]), "a".repeat(64))).toEqual({ reason: "corrupt" });
    expect(decodeEntry(Buffer.from("garbage"), "a".repeat(64))).toEqual({ reason: "no header" });
    expect(decodeEntry(Buffer.from("{garbage\n"), "a".repeat(64))).toEqual({ reason: "unreadable header" });
    const nl = entry.indexOf(0x0a);
    const header = JSON.parse(entry.subarray(0, nl).toString()) as Record<string, unknown>;
    const other = Buffer.concat([Buffer.from(JSON.stringify({ ...header, node: "v0.0.1" }) + "\n"), data]);
    expect(decodeEntry(other, "a".repeat(64))).toEqual({ reason: "another Node" });
  });

  it("lives in the per-user cache folder", () => {
    expect(codeCacheDir({ XDG_CACHE_HOME: "/x/cache" }, "/home/p")).toBe("/x/cache/toolgate/code-cache");
    expect(codeCacheDir({ XDG_CACHE_HOME: "relative" }, "/home/p")).toBe("/home/p/.cache/toolgate/code-cache");
    expect(codeCacheDir({}, "/home/p")).toBe("/home/p/.cache/toolgate/code-cache");
  });
});

const { out, t } = splitCliBuild();

const cache = path.join(t.path("home"), "cache", "toolgate", "code-cache");
const env = {
  ...process.env,
  HOME: t.path("home"),
  XDG_CONFIG_HOME: t.path("home"),
  XDG_STATE_HOME: t.path("home"),
  XDG_CACHE_HOME: path.join(t.path("home"), "cache"),
  CLAUDE_PROJECT_DIR: t.path("ws"),
  TOOLGATE_CODE_CACHE: "report",
};
const hookInput = (tool_name: string, tool_input: Record<string, unknown>) =>
  JSON.stringify({
    session_id: "s1",
    transcript_path: t.path("t.jsonl"),
    cwd: t.path("ws"),
    hook_event_name: "PreToolUse",
    tool_name,
    tool_input,
  });
const calls = [
  hookInput("Bash", { command: "ls src && git status | head -3" }),
  hookInput("Bash", { command: "rm -rf src" }),
  hookInput("Read", { file_path: t.path("ws/src/a.ts") }),
];
function hook(input: string, extra: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [path.join(out, "cli.js"), "hook", "claude-code"], {
    input,
    env: { ...env, ...extra },
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(0);
  return { answer: r.stdout, report: r.stderr };
}
/** The answers to every call, and what the cache said it did for the command bundles. */
function answers(extra: Record<string, string> = {}) {
  const runs = calls.map((c) => hook(c, extra));
  return { answers: runs.map((r) => r.answer), report: runs[0]!.report };
}
const entries = () => (existsSync(cache) ? readdirSync(cache).filter((f) => f.endsWith(".v8")) : []);
const entry = (bundle: string) =>
  path.join(
    cache,
    entries().find((f) => f.startsWith(`${bundle}-`))!,
  );

describe("the CLI with the code cache", () => {
  let uncached: string[] = [];

  it("answers as without it, and uses the entries its first run wrote", () => {
    uncached = answers({ TOOLGATE_CODE_CACHE: "off" }).answers;
    expect(entries()).toEqual([]);
    expect(JSON.parse(uncached[0]!)).toMatchObject({ hookSpecificOutput: { permissionDecision: "allow" } });
    expect(JSON.parse(uncached[1]!)).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
    const first = answers();
    expect(first.answers).toEqual(uncached);
    expect(first.report).toMatch(/cli-hook\.js: entry written/);
    expect(first.report).toMatch(/cli-analyzer\.js: entry written/);
    const second = answers();
    expect(second.answers).toEqual(uncached);
    expect(second.report).toMatch(/cli-hook\.js: entry used/);
    expect(second.report).toMatch(/cli-analyzer\.js: entry used/);
    expect(second.report).not.toMatch(/written/);
  });

  it("ignores a corrupt, truncated or garbage entry: the same answers, and the entry is written again", () => {
    const damage: Record<string, (file: string) => void> = {
      "a flipped byte": (f) => {
        const b = readFileSync(f);
        for (const at of [0.3, 0.6, 0.9]) {
          const i = Math.floor(b.length * at);
          b.writeUInt8(b.readUInt8(i) ^ 0x5a, i);
        }
        writeFileSync(f, b);
      },
      "a truncated entry": (f) => writeFileSync(f, readFileSync(f).subarray(0, 5000)),
      garbage: (f) => writeFileSync(f, Buffer.alloc(300_000, 7)),
      "data appended": (f) => appendFileSync(f, Buffer.alloc(64, 1)),
    };
    for (const [what, harm] of Object.entries(damage)) {
      harm(entry("cli-analyzer.js"));
      harm(entry("cli-hook.js"));
      const damaged = answers();
      expect(damaged.answers, what).toEqual(uncached);
      expect(damaged.report, what).toMatch(/cli-hook\.js: entry not used \((corrupt|no header)\)/);
      expect(damaged.report, what).toMatch(/cli-analyzer\.js: entry not used \((corrupt|no header)\)/);
      expect(damaged.report, what).toMatch(/cli-hook\.js: entry written/);
      expect(answers().report, what).toMatch(/cli-hook\.js: entry used/);
    }
  });

  it("does not use an entry or a folder that others may write", () => {
    chmodSync(entry("cli-hook.js"), 0o666);
    const open = answers();
    expect(open.answers).toEqual(uncached);
    expect(open.report).toMatch(/cli-hook\.js: entry not used \(not private to this user\)/);
    chmodSync(entry("cli-hook.js"), 0o600);
    chmodSync(cache, 0o777);
    try {
      const folder = answers();
      expect(folder.answers).toEqual(uncached);
      expect(folder.report).toMatch(/not used \(not private to this user\)/);
      expect(folder.report).not.toMatch(/entry used/);
    } finally {
      chmodSync(cache, 0o700);
    }
  });

  it("after a rebuild, compiles the new source and replaces the old build's entry", () => {
    const before = entry("cli-hook.js");
    appendFileSync(path.join(out, "cli-hook.js"), "\n// rebuilt\n");
    const rebuilt = answers();
    expect(rebuilt.answers).toEqual(uncached);
    expect(rebuilt.report).toMatch(/cli-hook\.js: no entry \(ENOENT\)/);
    expect(existsSync(before)).toBe(false);
    expect(entry("cli-hook.js")).not.toBe(before);
    expect(answers().report).toMatch(/cli-hook\.js: entry used/);
  });
});
