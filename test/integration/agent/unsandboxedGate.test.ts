/**
 * What the product promises, end to end without the OS sandbox: the gate, the executor and real bash (the
 * runner built with no sandbox source), so the gate alone stands between the model and the disk. Each case
 * checks the disk and what reached the model, beside a control call that shows the path is live (bash really
 * runs allowed lines, writes land, reads reach the model).
 */
import { execFileSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { NodeCommandRunner } from "../../../src/agent/node/nodeCommandRunner";
import type { AskResponse, TaskMessage } from "../../../src/shared/messages";
import { startHarness, toolResultsIn, type Harness } from "../../support/agentHarness";
import type { ScriptedTurn } from "../../support/scriptedModel";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const run = (command: string): ScriptedTurn => ({ steps: [{ tool: "execute_command", args: { command } }] });
const complete: ScriptedTurn = { steps: [{ tool: "attempt_completion", args: { result: "done" } }] };
/** The person accepts the completion and rejects every call the gate asks about. */
const rejectAsks = (m: TaskMessage): AskResponse =>
  m.kind === "completion" ? { kind: "approve" } : { kind: "reject" };
/** The newest tool result in the model's request `i` (each request carries the whole conversation). */
const lastResult = (x: Harness, i: number) => toolResultsIn(x.model, i).at(-1) ?? "";
const askedCommands = (x: Harness) =>
  x.asks.asks.filter((a) => a.message.kind === "tool").map((a) => a.message.text || a.message.tool?.params.command);

async function start(settings: Record<string, unknown>, files: Record<string, string>, turns: ScriptedTurn[]) {
  h = await startHarness({ settings, files, turns, answer: rejectAsks, env: { runner: new NodeCommandRunner() } });
  await h.task.run();
  return h;
}

describe("the gate alone, with real bash and no OS sandbox", () => {
  it("a write smuggled after an allowed `ls` is asked about, and rejected it writes nothing", async () => {
    const x = await start({ "toolgate.commands.allow": ["ls"] }, { "seed.txt": "s\n" }, [
      run("ls"),
      run("ls; echo x > f"),
      complete,
    ]);
    // Control: the allowed line ran in bash, unasked, and its output reached the model.
    expect(lastResult(x, 1)).toContain("seed.txt");
    expect(askedCommands(x)).toEqual(["ls; echo x > f"]);
    expect(x.exists("f")).toBe(false);
    const told = lastResult(x, 2);
    expect(told).toMatch(/reject/i);
    expect(told).not.toContain("seed.txt"); // not even its `ls` part ran
  });

  it("in auto mode a write to .vscode/settings.json still asks; rejected, the file is untouched", async () => {
    const before = '{ "editor.tabSize": 2 }\n';
    const x = await start({ "toolgate.mode": "auto" }, { ".vscode/settings.json": before }, [
      run("echo x > notes.txt"),
      run("echo x > .vscode/settings.json"),
      complete,
    ]);
    // Control: auto mode runs an ordinary write unasked, and it lands on disk.
    expect(x.read("notes.txt")).toBe("x\n");
    expect(askedCommands(x)).toEqual(["echo x > .vscode/settings.json"]);
    expect(x.read(".vscode/settings.json")).toBe(before);
    expect(lastResult(x, 2)).toMatch(/reject/i);
  });

  it("`cat .env` with .env in .toolgateignore is refused, even in auto mode: the secret never reaches the model", async () => {
    const x = await start(
      { "toolgate.mode": "auto" },
      { ".env": "API_TOKEN=hunter2-secret\n", ".toolgateignore": ".env\n", "notes.txt": "visible-note\n" },
      [run("cat notes.txt"), run("cat .env"), complete],
    );
    // Control: a file that is not ignored is read by bash and reaches the model.
    expect(lastResult(x, 1)).toContain("visible-note");
    const told = lastResult(x, 2);
    expect(told).toMatch(/Refused by the gate/);
    expect(told).toMatch(/\.env/);
    expect(JSON.stringify(x.model.requests)).not.toContain("hunter2-secret");
    expect(askedCommands(x)).toEqual([]); // refused outright, never put to the person
  });

  it("the person's TAR_OPTIONS cannot add a program to a line judged as a plain listing", async () => {
    const env = { ...process.env, TAR_OPTIONS: "--checkpoint=1 --checkpoint-action=exec=touch\\ ran-by-tar" };
    h = await startHarness({
      settings: {},
      files: { "seed.txt": "s\n" },
      turns: [run("tar -tf a.tar"), complete],
      answer: rejectAsks,
      env: { runner: new NodeCommandRunner(env) },
    });
    execFileSync("tar", ["-cf", "a.tar", "seed.txt"], { cwd: h.dir, env: { ...process.env, TAR_OPTIONS: "" } });
    // Control: the variable really makes tar run the program when it reaches tar.
    execFileSync("tar", ["-tf", "a.tar"], {
      cwd: h.dir,
      env: { ...env, TAR_OPTIONS: env.TAR_OPTIONS.replace("ran-by-tar", "control") },
    });
    expect(h.exists("control")).toBe(true);
    await h.task.run();
    expect(askedCommands(h)).toEqual([]);
    expect(lastResult(h, 1)).toContain("seed.txt");
    expect(h.exists("ran-by-tar")).toBe(false);
  });
});
