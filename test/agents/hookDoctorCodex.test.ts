/**
 * `toolgate hook doctor codex` asks the real Codex (0.171.0 from npm, in ~/.cache/toolgate-agents) which hooks
 * it would run (`codex app-server` hooks/list): the block `toolgate hook install codex` appends is loaded as
 * written (its command, a 30 s timeout, every tool) and untrusted, which doctor reports as failing open,
 * because Codex runs no untrusted non-managed hook. No model is involved: Codex is only asked about its config.
 * Skipped (with the reason printed) when the agent is not installed.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codexPreToolUseHooks } from "../../src/cli/hooks/codexHooks";
import { buildCli } from "../support/cli";
import { tempTree } from "../support/workspace";
import { installedAgent } from "./support/installed";

// The suite never skips: a missing agent fails it (scripts/agents/setup.mjs installs them).
const CODEX = installedAgent("codex").bin;

const t = tempTree({ "home/.codex/config.toml": 'model = "o4"\n\n[features]\nweb_search = true\n', "ws/.keep": "" });
// Codex may still be writing its state when the test ends: retry the removal.
afterAll(() => rmSync(t.dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }));
let cli = "";
beforeAll(async () => {
  cli = await buildCli();
}, 60_000);

describe("doctor against the real Codex 0.171.0", () => {
  it("Codex loads the installed block as written, untrusted; doctor says it fails open", async () => {
    const env = { PATH: process.env.PATH ?? "", HOME: t.path("home") };
    const install = spawnSync(process.execPath, [cli, "hook", "install", "codex", "--agent-bin", CODEX], {
      env,
      encoding: "utf8",
    });
    expect(install.status, install.stderr).toBe(0);
    const wrapper = path.join(t.path("home"), ".local/share/toolgate/hooks/codex.sh");
    const listed = await codexPreToolUseHooks(CODEX, t.path("ws"), env);
    expect(listed).toEqual([
      expect.objectContaining({ command: `'${wrapper}' || exit 2`, enabled: true, trustStatus: "untrusted" }),
    ]);
    const doctor = spawnSync(
      process.execPath,
      [cli, "hook", "doctor", "codex", "--project", t.path("ws"), "--agent-bin", CODEX, "--json"],
      { env, encoding: "utf8", timeout: 60_000 },
    );
    expect(doctor.status).toBe(1);
    const report = JSON.parse(doctor.stdout) as { findings: { level: string; code: string }[] };
    expect(report.findings.filter((f) => f.level === "fails-open").map((f) => f.code)).toEqual(["codex-untrusted"]);
    // The rest of the user's config.toml is untouched.
    expect(readFileSync(t.path("home/.codex/config.toml"), "utf8")).toMatch(
      /^model = "o4"\n\n\[features\]\nweb_search = true\n\n# >>> toolgate hook/,
    );
  }, 90_000);

  it("Codex reports [features] hooks = false as no hooks at all", async () => {
    const file = t.path("home/.codex/config.toml");
    writeFileSync(file, readFileSync(file, "utf8").replace("web_search = true", "web_search = true\nhooks = false"));
    const env = { PATH: process.env.PATH ?? "", HOME: t.path("home") };
    const listed = await codexPreToolUseHooks(CODEX, t.path("ws"), env);
    expect(listed?.filter((h) => h.enabled)).toEqual([]);
  }, 60_000);
});
