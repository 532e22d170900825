/**
 * A real headless `toolgate run`: its edits and commands are checkpointed in the CLI's store, it prints how to
 * restore, and the printed command (run as printed) brings the files back.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "../../support/cli";
import { startScriptedModel, type ScriptedModel, type ScriptedTurn } from "../../support/scriptedModel";
import { tempTree, type TempTree } from "../../support/workspace";
import { toolgateAsync } from "../cli/runProcess";
import { shadowDirs, shadowObjects, tempDir } from "./checkpointsFixture";

let cli = "";
beforeAll(async () => {
  cli = await buildCli();
});
const open: (ScriptedModel | TempTree | string)[] = [];
afterAll(async () => {
  for (const x of open) {
    if (typeof x === "string") rmSync(x, { recursive: true, force: true });
    else if ("close" in x) await x.close();
    else x.cleanup();
  }
});

const tool = (name: string, args: Record<string, unknown>): ScriptedTurn => ({ steps: [{ tool: name, args }] });

async function run(turns: ScriptedTurn[], flags: string[], files: Record<string, string>, state: string) {
  const model = await startScriptedModel(turns);
  const ws = tempTree(files);
  open.push(model, ws);
  const r = await toolgateAsync(
    cli,
    ["run", "-p", "do the task", "--workspace", ws.dir, "--base-url", model.openAiBaseUrl, ...flags],
    { env: { TOOLGATE_API_KEY: "sk-test", XDG_STATE_HOME: state } },
  );
  return { ...r, model, ws };
}

describe("toolgate run records checkpoints", () => {
  it("prints how to restore, and the printed command restores the files the run changed", async () => {
    const state = tempDir("toolgate-state-");
    open.push(state);
    const r = await run(
      [
        tool("write_to_file", { path: "src/a.ts", content: "export const a = 2;\n" }),
        tool("execute_command", { command: "sed -i s/old/new/ src/old.ts && echo made > src/made.ts" }),
        tool("attempt_completion", { result: "changed things" }),
      ],
      ["--auto"],
      {
        "src/a.ts": "export const a = 1;\n",
        "src/old.ts": "old\n",
        ".toolgateignore": "secret.env\n",
        "secret.env": "KEY=hunter2-run",
      },
      state,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(r.ws.path("src/a.ts"), "utf8")).toBe("export const a = 2;\n");
    expect(readFileSync(r.ws.path("src/old.ts"), "utf8")).toBe("new\n");
    const hint = /To undo the changes: (toolgate restore (\S+) 1 --yes)/.exec(r.stderr);
    expect(hint, r.stderr).not.toBeNull();
    expect(r.stderr).toMatch(/2 checkpoint\(s\) recorded/);
    const taskId = hint![2]!;

    const list = await toolgateAsync(cli, ["checkpoints", taskId], { env: { XDG_STATE_HOME: state } });
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^\s+1 .*write_to_file src\/a\.ts$/m);
    expect(list.stdout).toMatch(
      /^\s+2 .*execute_command: sed -i s\/old\/new\/ src\/old\.ts && echo made > src\/made\.ts$/m,
    );

    const args = hint![1]!.split(" ").slice(1);
    const restored = await toolgateAsync(cli, args, { env: { XDG_STATE_HOME: state } });
    expect(restored.status, restored.stderr).toBe(0);
    expect(readFileSync(r.ws.path("src/a.ts"), "utf8")).toBe("export const a = 1;\n");
    expect(readFileSync(r.ws.path("src/old.ts"), "utf8")).toBe("old\n");
    expect(existsSync(r.ws.path("src/made.ts"))).toBe(false);
    for (const dir of shadowDirs(`${state}/toolgate/checkpoints`))
      expect(shadowObjects(dir).toString("latin1")).not.toContain("hunter2-run");
  });

  it("--json reports the checkpoints as an event before the end", async () => {
    const state = tempDir("toolgate-state-");
    open.push(state);
    const r = await run(
      [tool("write_to_file", { path: "b.txt", content: "b\n" }), tool("attempt_completion", { result: "ok" })],
      ["--auto", "--json"],
      { "a.txt": "a\n" },
      state,
    );
    expect(r.status, r.stderr).toBe(0);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; steps?: number; restore?: string });
    const types = events.map((e) => e.type);
    expect(types.slice(-2)).toEqual(["checkpoints", "end"]);
    expect(events.at(-2)).toMatchObject({
      steps: 1,
      changedFiles: 1,
      restore: expect.stringMatching(/toolgate restore/),
    });
  });
});
