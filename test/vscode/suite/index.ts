/**
 * The desktop VS Code suite (@vscode/test-electron): runs inside the Extension Development Host, so it
 * reaches the extension through the `vscode` API. Scenarios 1–5 are listed with the hook each
 * needs; those that cannot run yet are reported SKIPPED with the reason, never passed.
 *
 * `run()` is what test-electron calls; it throws when any test failed, which makes VS Code exit non-zero.
 */
import * as assert from "node:assert/strict";
import * as vscode from "vscode";

const EXTENSION_ID = "toolgate.toolgate";

interface Test {
  readonly name: string;
  /** Returns a reason to skip, or undefined to run. */
  readonly skip?: () => string | undefined;
  readonly run?: () => Promise<void>;
}

const NEEDS_AGENT_API =
  "a task is driven through the webview, whose DOM the extension host cannot reach, and the extension exposes no test entry point to start one; the same scenario runs in code-server + Chromium via npm run test:e2e";

const tests: Test[] = [
  {
    name: "the extension activates",
    run: async () => {
      const ext = vscode.extensions.getExtension(EXTENSION_ID);
      assert.ok(ext, `${EXTENSION_ID} is not loaded`);
      await ext.activate();
      assert.equal(ext.isActive, true);
    },
  },
  {
    name: "settings have the defaults a new user gets",
    run: async () => {
      const c = vscode.workspace.getConfiguration("toolgate");
      assert.equal(c.get("mode"), "normal");
      assert.equal(c.get("autoApprove.enabled"), true);
      assert.equal(c.get("autoApprove.all"), false);
      assert.equal(c.get("autoApprove.maxRequests"), 0);
      assert.equal(c.get("ignoreFile"), ".toolgateignore");
      const actions = c.get<Record<string, boolean>>("autoApprove.actions");
      assert.equal(actions?.readFiles, true);
      assert.equal(actions?.editFiles, false);
    },
  },
  {
    name: "the Toolgate commands are registered",
    run: async () => {
      const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
      const contributed = (
        (ext.packageJSON as { contributes?: { commands?: Array<{ command: string }> } }).contributes?.commands ?? []
      ).map((c) => c.command);
      const registered = new Set(await vscode.commands.getCommands(true));
      assert.deepEqual(
        contributed.filter((c) => !registered.has(c)),
        [],
        "contributed but not registered",
      );
    },
  },
  {
    name: "scenario 1: the ask appears while write_to_file streams; Approve writes the streamed content",
    skip: () => NEEDS_AGENT_API,
  },
  {
    name: "scenario 2: auto-approve 'edit files' writes settings and the next write runs without asking",
    skip: () => NEEDS_AGENT_API,
  },
  {
    name: "scenario 3: 'ls; rm -rf build' asks naming rm; Reject with feedback keeps build/",
    skip: () => NEEDS_AGENT_API,
  },
  { name: "scenario 4: MCP 'always allow' for one server-everything tool", skip: () => NEEDS_AGENT_API },
  { name: "scenario 5: plan mode refuses a write and still reads", skip: () => NEEDS_AGENT_API },
];

export async function run(): Promise<void> {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const t of tests) {
    const reason = t.skip?.() ?? (t.run ? undefined : "not written yet");
    if (reason !== undefined) {
      skipped++;
      console.log(`[test:vscode] SKIPPED  ${t.name}\n             reason: ${reason}`);
      continue;
    }
    try {
      await t.run!();
      passed++;
      console.log(`[test:vscode] PASSED   ${t.name}`);
    } catch (e) {
      failed++;
      console.log(
        `[test:vscode] FAILED   ${t.name}\n             ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
      );
    }
  }
  console.log(`test:vscode: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  if (failed > 0) throw new Error(`${failed} desktop test(s) failed`);
}
