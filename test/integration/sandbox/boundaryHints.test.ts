/**
 * A command that failed because of the sandbox tells the model which boundary it hit, at the seam: the
 * scripted model, the real gate (`executeInSandbox`: each script is allowed, the gate cannot see into it), the
 * command runner with real bash and real bubblewrap. No network, read-only outside the workspace, a file the
 * ignore file hides; and, the sandbox alone, the read-only grant's workspace.
 */
import { afterEach, expect, it } from "vitest";
import { mkdirSync } from "node:fs";
import * as nodePath from "node:path";
import { startHarness, toolResultsIn, type Harness } from "../../support/agentHarness";
import { NodeCommandRunner } from "../../../src/agent/node/nodeCommandRunner";
import { probe, varTmpDir } from "./sandboxHarness";
import { sandboxDescribe } from "../../support/sandboxRequired";
import { lazyCheckpoints } from "../../support/lazyCheckpoints";
import { grantOf } from "../../../src/core/sandbox/grant";
import { SANDBOXED_AUTONOMY } from "../../support/presetSettings";

let h: Harness | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const c of cleanups.splice(0)) c();
});

const SANDBOXED = SANDBOXED_AUTONOMY;

const FILES = {
  "tools/net.sh": "#!/bin/sh\ncurl -sS --max-time 5 https://example.com/ >/dev/null\n",
  "tools/out.sh": "#!/bin/sh\necho x > ../outside.txt\n",
  "tools/secret.sh": "#!/bin/sh\ncat secrets/key.txt\n",
  "secrets/key.txt": "k\n",
  ".toolgateignore": "secrets/\n",
};

/** The model's result for one command the gate allowed. */
async function resultOf(command: string, flat: Record<string, unknown> = {}): Promise<string> {
  const parent = varTmpDir("toolgate-hints-");
  cleanups.push(parent.cleanup);
  const settings = { ...SANDBOXED, ...flat };
  const runner = new NodeCommandRunner(process.env, {
    values: () => settings,
    ignoreFileName: () => ".toolgateignore",
  });
  const workspace = nodePath.join(parent.dir, "ws");
  mkdirSync(workspace);
  h = await startHarness({
    parent: workspace,
    settings,
    files: FILES,
    env: { runner },
    gate: () => ({ sandbox: { available: true }, checkpoints: { available: true } }),
    deps: { checkpoints: lazyCheckpoints(() => h!.dir, nodePath.join(parent.dir, "store")) },
    turns: [
      { steps: [{ tool: "execute_command", args: { command } }] },
      { steps: [{ tool: "attempt_completion", args: { result: "done" } }] },
    ],
    answer: (m) => (m.kind === "completion" ? { kind: "approve" } : { kind: "reject" }),
  });
  await h.task.run();
  // Allowed without a click (the gate asked nothing); the one card is the offer of an unsandboxed re-run, declined.
  const asked = h.asks.asks.filter((a) => a.message.kind === "tool").map((a) => a.message.tool?.decision?.rule);
  expect(asked).toEqual(["sandbox:unsandboxed"]);
  return toolResultsIn(h.model, 1).join("\n");
}

sandboxDescribe(probe)("a command the sandbox stopped: the model hears which boundary (real bash, bubblewrap)", () => {
  it("no network", async () => {
    expect(await resultOf("sh tools/net.sh")).toMatch(
      /the sandbox has no network \(setting `toolgate.sandbox.network` is "off"\)/i,
    );
  });

  it("read-only outside the workspace", async () => {
    expect(await resultOf("sh tools/out.sh")).toMatch(/The sandbox blocked a write: outside the workspace/);
  });

  it("a file the ignore file hides", async () => {
    expect(await resultOf("sh tools/secret.sh")).toMatch(/The sandbox hides `[^`]*secrets[^`]*` \(the ignore file/);
  });

  it("the read-only grant (the sandbox alone): a write inside the workspace is named as that grant's", async () => {
    const parent = varTmpDir("toolgate-hints-");
    cleanups.push(parent.cleanup);
    const runner = new NodeCommandRunner(process.env, {
      values: () => SANDBOXED,
      ignoreFileName: () => ".toolgateignore",
    });
    const r = await runner.run({
      command: "echo x > inside.txt",
      cwd: parent.dir,
      roots: [parent.dir],
      autoApproved: true,
      grant: grantOf("read-only", []),
      timeoutMs: 20_000,
      maxOutputBytes: 65_536,
      signal: new AbortController().signal,
    });
    expect(r.sandbox?.blockedCause).toBe("read-only");
    expect(r.sandbox?.blocked).toMatch(/allowed as read-only .* the workspace included/);
  });
});
