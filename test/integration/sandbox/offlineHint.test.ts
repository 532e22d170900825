/**
 * A package manager run in the sandbox without network (an empty cache cannot build offline) fails with a
 * message that names the registry and `toolgate.sandbox.network`; its cache is Toolgate's own folder.
 */
import { spawnSync } from "node:child_process";
import { expect, it } from "vitest";
import { NodeCommandRunner } from "../../../src/agent/node/nodeCommandRunner";
import { grantOf } from "../../../src/core/sandbox/grant";
import { sandboxDescribe } from "../../support/sandboxRequired";
import { tempTree } from "../../support/workspace";
import { probe } from "./sandboxHarness";

const HAS_NPM = spawnSync("npm", ["--version"]).status === 0;

sandboxDescribe(probe, !HAS_NPM)("a package manager without network (real bubblewrap)", () => {
  it("npm is told to list its registry in toolgate.sandbox.network, and uses Toolgate's cache", async () => {
    const ws = tempTree({ "package.json": "{}" });
    try {
      const runner = new NodeCommandRunner(process.env, {
        values: () => ({}),
        ignoreFileName: () => ".toolgateignore",
      });
      const run = (command: string) =>
        runner.run({
          command,
          cwd: ws.dir,
          timeoutMs: 60_000,
          maxOutputBytes: 100_000,
          signal: new AbortController().signal,
          autoApproved: true,
          roots: [ws.dir],
          grant: grantOf("workspace-write"),
          taskKey: "offline-hint",
        });
      const r = await run("npm view left-pad version --fetch-retries=0 --fetch-timeout=5000");
      expect(r.exitCode).not.toBe(0);
      expect(r.sandbox?.blockedCause).toBe("network");
      expect(r.sandbox?.blocked).toMatch(/list registry\.npmjs\.org in `toolgate\.sandbox\.network`/);
      const cache = await run("npm config get cache");
      expect(cache.output.trim()).toMatch(/toolgate\/pkg\/npm$/);
      expect(cache.sandbox?.privateTmp).toBe(true);
      runner.endTask("offline-hint");
    } finally {
      ws.cleanup();
    }
  }, 90_000);
});
