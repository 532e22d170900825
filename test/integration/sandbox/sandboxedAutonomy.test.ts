/**
 * "Run other commands in the sandbox" (`executeInSandbox`) at the seam: the scripted model, the real gate, the
 * execute_command handler, the one command runner with real bash and real bubblewrap, a real git checkpoint
 * service, and the task's ask machinery. Project runners run without a click, sandboxed, after a checkpoint;
 * every boundary asks with a rule naming it; without a sandbox or a checkpoint it asks; the model's
 * `sandbox: false` is always the person's.
 */
import { afterEach, expect, it } from "vitest";
import { existsSync, mkdirSync } from "node:fs";
import * as nodePath from "node:path";
import { startHarness, toolResultsIn, type Harness } from "../../support/agentHarness";
import { NodeCommandRunner } from "../../../src/agent/node/nodeCommandRunner";
import { cliCheckpointService } from "../../../src/cli/checkpoints";
import { DEFAULT_CHECKPOINT_SETTINGS } from "../../../src/core/checkpointSettings";
import type { CheckpointService, StepCall } from "../../../src/agent/checkpoints/types";
import type { GateOptions } from "../../../src/core/gate";
import type { AskResponse, TaskMessage } from "../../../src/shared/messages";
import { probe, varTmpDir } from "./sandboxHarness";
import { sandboxDescribe } from "../../support/sandboxRequired";

let h: Harness | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const c of cleanups.splice(0)) c();
});

const SANDBOXED = {
  "toolgate.autoApprove.actions": {
    readFiles: true,
    editFiles: true,
    executeSafeCommands: true,
    executeInSandbox: true,
  },
};
const WORKS: Partial<GateOptions> = { sandbox: { available: true }, checkpoints: { available: true } };

/** A real checkpoint service for the harness's workspace, noting what existed when each checkpoint was taken. */
class WatchedCheckpoints implements CheckpointService {
  inner: CheckpointService | undefined;
  dir = "";
  /** Per `before`: the step's label and whether the file the test watches existed then. */
  readonly befores: { label: string | undefined; watchedExisted: boolean; recorded: boolean }[] = [];
  constructor(
    private readonly watched: string,
    private readonly fail = false,
  ) {}
  availability = () => this.inner!.availability();
  warm = () => this.inner!.warm();
  async before(call: StepCall) {
    const watchedExisted = existsSync(nodePath.join(this.dir, this.watched));
    if (this.fail) {
      this.befores.push({ label: call.label, watchedExisted, recorded: false });
      return { recorded: false as const, reason: "git is not installed" };
    }
    const r = await this.inner!.before(call);
    this.befores.push({ label: call.label, watchedExisted, recorded: r.recorded });
    return r;
  }
  after = (s: Parameters<CheckpointService["after"]>[0]) => this.inner!.after(s);
  list = (t: string) => this.inner!.list(t);
  plan: CheckpointService["plan"] = (...a) => this.inner!.plan(...a);
  restore: CheckpointService["restore"] = (...a) => this.inner!.restore(...a);
  diff: CheckpointService["diff"] = (...a) => this.inner!.diff(...a);
  fileAt: CheckpointService["fileAt"] = (...a) => this.inner!.fileAt(...a);
  forget: CheckpointService["forget"] = (...a) => this.inner!.forget(...a);
  prune: CheckpointService["prune"] = () => this.inner!.prune();
}

interface Run {
  readonly harness: Harness;
  readonly parent: string;
  /** The model's tool result for each command, in order. */
  readonly results: string[];
  readonly checkpoints: WatchedCheckpoints | undefined;
}

async function runTask(
  calls: readonly Record<string, unknown>[],
  o: {
    readonly answer?: (m: TaskMessage) => AskResponse;
    readonly gate?: Partial<GateOptions>;
    readonly flat?: Record<string, unknown>;
    readonly files?: Record<string, string>;
    readonly checkpoints?: WatchedCheckpoints;
  } = {},
): Promise<Run> {
  const parent = varTmpDir("toolgate-autonomy-");
  cleanups.push(parent.cleanup);
  const flat = { ...SANDBOXED, ...o.flat };
  const runner = new NodeCommandRunner(process.env, { values: () => flat, ignoreFileName: () => ".toolgateignore" });
  const workspace = nodePath.join(parent.dir, "ws");
  mkdirSync(workspace);
  const ck = o.checkpoints;
  h = await startHarness({
    parent: workspace,
    settings: flat,
    files: o.files ?? {},
    env: { runner },
    gate: () => ({ ...WORKS, ...o.gate }),
    ...(ck ? { deps: { checkpoints: ck } } : {}),
    turns: [
      ...calls.map((args) => ({ steps: [{ tool: "execute_command", args }] })),
      { steps: [{ tool: "attempt_completion", args: { result: "done" } }] },
    ],
    answer: (m) => (m.kind === "completion" ? { kind: "approve" } : (o.answer?.(m) ?? { kind: "reject" })),
  });
  if (ck) {
    ck.dir = h.dir;
    ck.inner = cliCheckpointService({
      roots: [h.dir],
      settings: DEFAULT_CHECKPOINT_SETTINGS,
      ignoreFile: ".toolgateignore",
      trusted: true,
      storageDir: nodePath.join(parent.dir, "store"),
    });
  }
  await h.task.run();
  const results = calls.map((_, i) => toolResultsIn(h!.model, i + 1).at(-1) ?? "");
  return { harness: h, parent: workspace, results, checkpoints: ck };
}

const toolAsks = (x: Harness) => x.asks.asks.filter((a) => a.message.kind === "tool");
const rows = (x: Harness) => x.view.filter((m) => m.tool?.name === "execute_command");

const PROJECT = {
  "scripts/x.sh": "#!/bin/sh\necho built > made-by-script.txt\n",
  "tools/gen.js": "require('fs').writeFileSync('generated.txt', 'gen')\n",
  Makefile: "all:\n\techo made > made-by-make.txt\n",
  ".env": "SECRET=1\n",
  ".toolgateignore": ".env\n",
};

sandboxDescribe(probe)("executeInSandbox: project runners run without a click (real bash, bubblewrap, git)", () => {
  it("a script, a node generator and make run sandboxed, each after a checkpoint taken before it wrote", async () => {
    const ck = new WatchedCheckpoints("made-by-script.txt");
    const r = await runTask(
      [{ command: "chmod +x scripts/x.sh && ./scripts/x.sh" }, { command: "node tools/gen.js" }, { command: "make" }],
      { files: PROJECT, checkpoints: ck },
    );
    expect(toolAsks(r.harness)).toHaveLength(0);
    expect(r.harness.read("made-by-script.txt")).toBe("built\n");
    expect(r.harness.read("generated.txt")).toBe("gen");
    expect(r.harness.read("made-by-make.txt")).toBe("made\n");
    for (const row of rows(r.harness)) {
      expect(row.tool?.decision?.rule).toBe("autoApprove.executeInSandbox");
      expect(row.tool?.sandboxed).toBe(true);
      expect(row.tool?.checkpoint?.state).toBe("recorded");
    }
    // One checkpoint per command, recorded, and the first taken before the script had written anything.
    expect(ck.befores.map((b) => b.recorded)).toEqual([true, true, true]);
    expect(ck.befores[0]!.watchedExisted).toBe(false);
    expect(r.results.every((t) => /Exit code: 0/.test(t))).toBe(true);
  });

  it("the sandbox still bounds them: a script writing outside the workspace is stopped", async () => {
    const r = await runTask([{ command: "./scripts/out.sh" }], {
      files: { "scripts/out.sh": "#!/bin/sh\necho x > ../escaped.txt\n" },
      checkpoints: new WatchedCheckpoints("x"),
      answer: () => ({ kind: "reject" }),
    });
    // Allowed by the gate (it cannot see into the script); the sandbox stopped the write.
    expect(rows(r.harness)[0]?.tool?.decision?.rule).toBe("autoApprove.executeInSandbox");
    expect(existsSync(nodePath.join(r.parent, "escaped.txt"))).toBe(false);
  });
});

sandboxDescribe(probe)("executeInSandbox: every boundary asks, with a rule naming it", () => {
  it("network, outside write, ignored read, deletion, dynamic code: asked, named, and not run when rejected", async () => {
    const calls = [
      { command: "curl -fsS https://example.com" },
      { command: "touch ../outside.txt" },
      { command: "grep -r SECRET ." },
      { command: "rm Makefile" },
      { command: 'eval "$x"' },
    ];
    const r = await runTask(calls, { files: PROJECT, checkpoints: new WatchedCheckpoints("x") });
    const asked = toolAsks(r.harness).map((a) => a.message.tool?.decision?.rule);
    expect(asked).toEqual([
      "sandbox:network",
      "sandbox:outside-write",
      "ignoreFile: .toolgateignore",
      "commands:deletes",
      "commands:dynamic-code",
    ]);
    expect(toolAsks(r.harness)[0]!.message.tool?.decision?.reason).toMatch(/`curl` reaches the network/);
    expect(existsSync(nodePath.join(r.parent, "outside.txt"))).toBe(false);
    expect(r.harness.exists("Makefile")).toBe(true);
  });

  it("with checkpoints off it asks, saying so", async () => {
    const r = await runTask([{ command: "make" }], {
      files: PROJECT,
      gate: { checkpoints: { available: false, reason: "toolgate.checkpoints.enabled is off" } },
    });
    const ask = toolAsks(r.harness)[0]?.message.tool?.decision;
    expect(ask?.rule).toBe("sandbox:no-checkpoint");
    expect(ask?.reason).toMatch(/toolgate.checkpoints.enabled is off/);
    expect(r.harness.exists("made-by-make.txt")).toBe(false);
  });

  it("when the checkpoint fails at run time, the call's own card asks before it runs; rejected, it does not run", async () => {
    const ck = new WatchedCheckpoints("made-by-make.txt", true);
    const r = await runTask([{ command: "make" }], { files: PROJECT, checkpoints: ck });
    const asks = toolAsks(r.harness);
    expect(asks).toHaveLength(1);
    expect(asks[0]!.message.tool?.decision).toMatchObject({ rule: "sandbox:no-checkpoint" });
    expect(asks[0]!.message.tool?.decision?.reason).toMatch(/git is not installed/);
    expect(r.harness.exists("made-by-make.txt")).toBe(false);
    expect(r.results[0]).toMatch(/rejected/);
  });

  it("when the checkpoint fails and the person approves, it runs, still sandboxed", async () => {
    const ck = new WatchedCheckpoints("made-by-make.txt", true);
    const r = await runTask([{ command: "make" }], {
      files: PROJECT,
      checkpoints: ck,
      answer: () => ({ kind: "approve" }),
    });
    expect(toolAsks(r.harness).map((a) => a.message.tool?.decision?.rule)).toEqual(["sandbox:no-checkpoint"]);
    expect(r.harness.read("made-by-make.txt")).toBe("made\n");
    expect(rows(r.harness)[0]?.tool?.sandboxed).toBe(true);
  });

  it("without a sandbox it asks, saying why", async () => {
    const r = await runTask([{ command: "make" }], {
      files: PROJECT,
      gate: { sandbox: { available: false, reason: "--assume-sandbox unavailable" } },
      checkpoints: new WatchedCheckpoints("x"),
    });
    const ask = toolAsks(r.harness)[0]?.message.tool?.decision;
    expect(ask?.rule).toBe("sandbox:unavailable");
    expect(ask?.reason).toMatch(/--assume-sandbox unavailable/);
    expect(r.harness.exists("made-by-make.txt")).toBe(false);
  });
});

sandboxDescribe(probe)("sandbox: false is the person's, in auto mode and with approve-all", () => {
  const leave = { command: "touch ../outside.txt", sandbox: false, reason: "it writes next to the workspace" };

  for (const [name, flat] of [
    ["auto mode", { "toolgate.mode": "auto" }],
    ["approve-all", { "toolgate.autoApprove.all": true }],
  ] as const) {
    it(`${name}: a card showing the reason; approved, it runs outside the sandbox`, async () => {
      const r = await runTask([leave], { flat, answer: () => ({ kind: "approve" }) });
      const asks = toolAsks(r.harness);
      expect(asks).toHaveLength(1);
      const card = asks[0]!.message.tool!;
      expect(card.decision).toMatchObject({ rule: "sandbox:leave" });
      expect(card.decision?.reason).toMatch(/it writes next to the workspace/);
      expect(card.sandboxOutlook).toMatchObject({ sandboxed: false });
      expect(existsSync(nodePath.join(r.parent, "outside.txt"))).toBe(true);
      expect(rows(r.harness)[0]?.tool?.sandboxed).toBe(false);
    });
  }

  it("rejected, it does not run", async () => {
    const r = await runTask([leave], { flat: { "toolgate.mode": "auto" } });
    expect(toolAsks(r.harness).map((a) => a.message.tool?.decision?.rule)).toEqual(["sandbox:leave"]);
    expect(existsSync(nodePath.join(r.parent, "outside.txt"))).toBe(false);
  });
});
