import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "../../support/cli";
import { toolgate } from "./cliProcess";
import { tempTree } from "../../support/workspace";

const t = tempTree({ "ws/src/a.ts": "a" });
let cli = "";
beforeAll(async () => {
  cli = await buildCli();
});
afterAll(() => t.cleanup());

const settings = t.path("settings.json");
writeFileSync(settings, JSON.stringify({ "toolgate.autoApprove.actions": { webFetch: true } }));
const fetchCall = { id: 1, tool: "web_fetch", params: { url: "https://collector.example/x" } };
const base = ["--workspace", t.path("ws"), "--settings", settings];

describe("--tainted-by", () => {
  it("check decides as in a tainted task: the way out asks with the taint rule, naming every source", () => {
    const clean = toolgate(cli, ["check", ...base], { input: [fetchCall] });
    expect(JSON.parse(clean.stdout)).toMatchObject({ decision: "allow" });
    const r = toolgate(cli, ["check", ...base, "--tainted-by", "tracker/fetch_issue", "--tainted-by", "docs.example"], {
      input: [fetchCall, { id: 2, tool: "read_file", params: { path: "src/a.ts" } }],
    });
    expect(r.status).toBe(0);
    const [fetch, read] = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(fetch).toMatchObject({ id: 1, decision: "ask", rule: "untrusted-content" });
    expect(String(fetch!.reason)).toContain("from docs.example and tracker/fetch_issue");
    expect(read).toMatchObject({ id: 2, decision: "allow" });
  });

  it("explain prints a taint line and the step's trace", () => {
    const r = toolgate(cli, ["explain", ...base, "--tainted-by", "tracker/fetch_issue"], { input: [fetchCall] });
    expect(r.stdout).toContain("  taint: read untrusted content from tracker/fetch_issue");
    expect(r.stdout).toMatch(/3 untrusted content: tainted by tracker\/fetch_issue; collector\.example is a way out/);
    expect(r.stdout).toMatch(/=> ASK: This task read content from tracker\/fetch_issue.*\[untrusted-content\]/);
    const clean = toolgate(cli, ["explain", ...base], { input: [fetchCall] });
    expect(clean.stdout).toContain("  taint: no untrusted content read");
  });
});
