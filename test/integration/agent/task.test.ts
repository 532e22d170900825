import { afterEach, describe, expect, it } from "vitest";
import { startHarness, toolResultsIn, type Harness, type HarnessOptions } from "../../support/agentHarness";
import type { TaskMessage } from "../../../src/shared/messages";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function harness(o: HarnessOptions): Promise<Harness> {
  h = await startHarness(o);
  return h;
}

async function waitFor<T>(fn: () => T | undefined | false, what: string, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const approveAll = () => ({ kind: "approve" as const });
const toolMessages = (view: readonly TaskMessage[], name: string) => view.filter((m) => m.tool?.name === name);
const completion = { steps: [{ tool: "attempt_completion", args: { result: "Done." }, chunks: 3 }] };

describe.each(["openai", "anthropic"] as const)("whole tasks over %s", (format) => {
  it("reads, writes (auto-approved), completes; the disk and the model agree", async () => {
    const content = "export const answer = 42;\n".repeat(40);
    const t = await harness({
      format,
      files: { "src/a.ts": "const x = 1;\n" },
      settings: { "toolgate.autoApprove.actions": { readFiles: true, editFiles: true } },
      turns: [
        { steps: [{ text: "Reading first." }, { tool: "read_file", args: { path: "src/a.ts" }, chunks: 2 }] },
        { steps: [{ tool: "write_to_file", args: { path: "src/b.ts", content }, chunks: 40 }] },
        completion,
      ],
      answer: approveAll,
    });
    expect(await t.task.run()).toBe("completed");
    expect(t.read("src/b.ts")).toBe(content);
    expect(toolResultsIn(t.model, 1)).toEqual(["const x = 1;\n"]);
    expect(toolResultsIn(t.model, 2)[1]).toMatch(/src\/b\.ts` was created/);
    // The write streamed as appends (never the whole text in a patch), and the message ended done.
    const write = toolMessages(t.view, "write_to_file")[0]!;
    expect(write.text).toBe(content);
    expect(write.tool!.status).toBe("done");
    expect(write.role).toBe("say");
    for (const d of t.deltas)
      if (d.type === "patch") expect(JSON.stringify(d.patch)).not.toContain("export const answer = 42;\\nexport");
    // Only the completion asked.
    expect(t.asks.asks.map((a) => a.message.kind)).toEqual(["completion"]);
    const sys =
      format === "openai"
        ? (t.model.requests[0]!.body.messages as { content: string }[])[0]!.content
        : String(t.model.requests[0]!.body.system);
    expect(sys).toContain("## write_to_file");
  });

  it("an edit that asks, rejected with feedback: nothing written, the model hears the feedback", async () => {
    const t = await harness({
      format,
      turns: [
        { steps: [{ tool: "write_to_file", args: { path: "notes.md", content: "hello" }, chunks: 4 }] },
        completion,
      ],
      answer: (m) => (m.kind === "completion" ? { kind: "approve" } : { kind: "reject", text: "use a .txt file" }),
    });
    expect(await t.task.run()).toBe("completed");
    expect(t.exists("notes.md")).toBe(false);
    expect(toolResultsIn(t.model, 1)[0]).toBe("The person rejected this call. Their feedback: use a .txt file");
    expect(toolMessages(t.view, "write_to_file")[0]!.tool!.status).toBe("rejected");
  });
});

describe("fault handling", () => {
  it("a stream cut inside a tool call runs nothing; the row is interrupted; retry continues", async () => {
    const t = await harness({
      settings: { "toolgate.autoApprove.actions": { editFiles: true } },
      turns: [
        {
          steps: [
            {
              tool: "write_to_file",
              args: { path: "cut.txt", content: "x".repeat(500) },
              chunks: 10,
              cutAfterChunk: 4,
            },
          ],
        },
        completion,
      ],
      answer: approveAll,
    });
    expect(await t.task.run()).toBe("completed");
    expect(t.exists("cut.txt")).toBe(false);
    const row = toolMessages(t.view, "write_to_file")[0]!;
    expect(row.tool!.status).toBe("interrupted");
    expect(row.role).toBe("say");
    expect(t.view.some((m) => m.kind === "error" && /model request failed: .*cut/.test(m.text))).toBe(true);
    // The retry sent the same conversation: the cut turn is not in it.
    expect(t.model.requests).toHaveLength(2);
    expect(JSON.stringify(t.model.requests[1]!.body.messages)).not.toContain("cut.txt");
  });

  it("a complete call before a cut in the same turn does not run either", async () => {
    const t = await harness({
      settings: { "toolgate.autoApprove.actions": { editFiles: true } },
      turns: [
        {
          steps: [
            { tool: "write_to_file", args: { path: "first.txt", content: "1" } },
            {
              tool: "write_to_file",
              args: { path: "second.txt", content: "2".repeat(50) },
              chunks: 5,
              cutAfterChunk: 2,
            },
          ],
        },
      ],
      answer: (m) => (m.kind === "error" ? { kind: "reject" } : { kind: "approve" }),
    });
    expect(await t.task.run()).toBe("failed");
    expect(t.exists("first.txt")).toBe(false);
    expect(toolMessages(t.view, "write_to_file").map((m) => m.tool!.status)).toEqual(["interrupted", "interrupted"]);
  });

  it("malformed tool-argument JSON: not run, the model gets a clear error and goes on", async () => {
    const t = await harness({
      turns: [{ steps: [{ tool: "execute_command", args: '{"command": "ls", }', chunks: 3 }] }, completion],
      answer: approveAll,
    });
    expect(await t.task.run()).toBe("completed");
    expect(toolResultsIn(t.model, 1)[0]).toMatch(
      /^The arguments of execute_command were not valid JSON \(unexpected "}" \(expected a property name\) at position \d+\)\. Nothing was run/,
    );
    expect(toolMessages(t.view, "execute_command")[0]!.tool!.status).toBe("error");
  });

  it("provider 429 then success: the person sees the retry, the task completes", async () => {
    const t = await harness({
      turns: [{ status: 429, retryAfter: 0, message: "rate limited" }, completion],
      answer: approveAll,
    });
    expect(await t.task.run()).toBe("completed");
    // One row shows the failure and the retry it waits for; it is answered once the retry went ahead.
    const rows = t.view.filter((m) => m.kind === "error");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ askState: "answered", retry: { attempt: 2, of: 4 } });
    expect(rows[0]!.text).toMatch(/rate limited/);
    expect(t.model.requests).toHaveLength(2);
  });

  it("cancel during a running command kills its whole process group", async () => {
    const t = await harness({
      turns: [
        { steps: [{ tool: "execute_command", args: { command: "echo shell=$$; sleep 30 & echo child=$!; wait" } }] },
      ],
      answer: approveAll,
    });
    const done = t.task.run();
    const out = await waitFor(
      () => t.view.find((m) => m.kind === "command_output" && /child=\d+/.test(m.text)),
      "command output",
    );
    const shell = Number(/shell=(\d+)/.exec(out.text)![1]);
    const child = Number(/child=(\d+)/.exec(out.text)![1]);
    expect(() => process.kill(child, 0)).not.toThrow();
    t.task.cancel();
    expect(await done).toBe("cancelled");
    await waitFor(() => {
      for (const pid of [shell, child]) {
        try {
          process.kill(pid, 0);
          return false;
        } catch {
          // gone
        }
      }
      return true;
    }, "processes to exit");
    const row = toolMessages(t.view, "execute_command")[0]!;
    expect(row.tool!.status).toBe("interrupted");
    // The conversation stays valid: the call has a result saying it was stopped.
    const snap = t.task.snapshot();
    const last = snap.conversation[snap.conversation.length - 1]!;
    expect(last.content[0]).toMatchObject({
      type: "tool_result",
      content: "The task was cancelled while this call ran; it was stopped.",
    });
  });

  it("refused by the gate (plan mode): nothing written, the reason and rule go to the model", async () => {
    const t = await harness({
      settings: { "toolgate.mode": "plan" },
      turns: [{ steps: [{ tool: "write_to_file", args: { path: "a.txt", content: "x" } }] }, completion],
      answer: approveAll,
    });
    expect(await t.task.run()).toBe("completed");
    expect(t.exists("a.txt")).toBe(false);
    expect(toolResultsIn(t.model, 1)[0]).toMatch(
      /^Refused by the gate: plan mode is read-only: files cannot be edited \(rule: mode:plan\)/,
    );
    // Plan mode hides edit tools from the model.
    const tools = (t.model.requests[0]!.body.tools as { function: { name: string } }[]).map((x) => x.function.name);
    expect(tools).not.toContain("write_to_file");
  });
});

describe("settings changed mid-stream", () => {
  it("ask → say: a streaming edit that would ask switches to auto-approved and runs without asking", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const t = await harness({
      turns: [
        {
          steps: [
            {
              tool: "write_to_file",
              args: { path: "live.txt", content: "abcdefghij".repeat(20) },
              chunks: 10,
              pauseAfterChunk: { chunk: 5, until: gate },
            },
          ],
        },
        completion,
      ],
      answer: (m) => (m.kind === "completion" ? { kind: "approve" } : { kind: "reject", text: "should not be asked" }),
    });
    const done = t.task.run();
    const row = await waitFor(
      () => t.view.find((m) => m.tool?.name === "write_to_file" && m.role === "ask"),
      "the ask preview",
    );
    expect(row.tool!.status).toBe("streaming");
    expect(row.askState).toBeUndefined();
    await t.setSettings({ "toolgate.autoApprove.actions": { editFiles: true } });
    await waitFor(() => t.view.find((m) => m.id === row.id && m.role === "say"), "the switch to say");
    release();
    expect(await done).toBe("completed");
    expect(t.read("live.txt")).toBe("abcdefghij".repeat(20));
    expect(t.asks.asks.map((a) => a.message.kind)).toEqual(["completion"]);
  });

  it("say → ask: an auto-approved streaming edit must wait once approval is switched off", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const t = await harness({
      settings: { "toolgate.autoApprove.actions": { editFiles: true } },
      turns: [
        {
          steps: [
            {
              tool: "write_to_file",
              args: { path: "live.txt", content: "z".repeat(300) },
              chunks: 10,
              pauseAfterChunk: { chunk: 5, until: gate },
            },
          ],
        },
        completion,
      ],
      answer: approveAll,
    });
    const done = t.task.run();
    const row = await waitFor(
      () => t.view.find((m) => m.tool?.name === "write_to_file" && m.tool.decision?.decision === "allow"),
      "the say preview",
    );
    expect(row.role).toBe("say");
    await t.setSettings({ "toolgate.autoApprove.actions": { editFiles: false } });
    await waitFor(() => t.view.find((m) => m.id === row.id && m.role === "ask"), "the switch to ask");
    release();
    expect(await done).toBe("completed");
    expect(t.asks.asks.map((a) => a.message.kind)).toEqual(["tool", "completion"]);
    expect(t.read("live.txt")).toBe("z".repeat(300));
  });

  it("a pending ask is withdrawn and the call runs when settings now allow it", async () => {
    const t = await harness({
      turns: [{ steps: [{ tool: "write_to_file", args: { path: "p.txt", content: "p" } }] }, completion],
    });
    const done = t.task.run();
    const ask = await t.asks.next();
    expect(ask.message.tool!.name).toBe("write_to_file");
    await t.setSettings({ "toolgate.autoApprove.actions": { editFiles: true } });
    expect(ask.signal.aborted).toBe(true);
    const verdict = await t.asks.next();
    expect(verdict.message.kind).toBe("completion");
    expect(t.read("p.txt")).toBe("p");
    verdict.resolve({ kind: "approve" });
    expect(await done).toBe("completed");
  });
});

describe("asks", () => {
  it("a followup question's answer goes to the model", async () => {
    const t = await harness({
      turns: [
        { steps: [{ tool: "ask_followup_question", args: { question: "Which colour?", options: ["red", "blue"] } }] },
        completion,
      ],
      answer: (m) => (m.kind === "followup" ? { kind: "message", text: "blue" } : { kind: "approve" }),
    });
    expect(await t.task.run()).toBe("completed");
    const q = t.view.find((m) => m.kind === "followup")!;
    expect(q.text).toBe("Which colour?");
    expect(q.options).toEqual(["red", "blue"]);
    expect(toolResultsIn(t.model, 1)[0]).toBe("The person answered: blue");
  });

  it("feedback on the completion continues the task with the person's reply", async () => {
    let n = 0;
    const t = await harness({
      turns: [completion, completion],
      answer: () => (n++ === 0 ? { kind: "message", text: "also add tests" } : { kind: "approve" }),
    });
    expect(await t.task.run()).toBe("completed");
    expect(JSON.stringify(t.model.requests[1]!.body.messages)).toContain(
      "The person replied to your result:\\nalso add tests",
    );
  });

  it("cancelling while an ask is pending withdraws it and leaves no pending ask behind", async () => {
    const t = await harness({ turns: [completion] });
    const done = t.task.run();
    const ask = await t.asks.next();
    t.task.cancel();
    expect(await done).toBe("cancelled");
    expect(ask.signal.aborted).toBe(true);
    expect(t.task.snapshot().messages.filter((m) => m.askState === "pending")).toEqual([]);
    expect(t.view.at(-1)).toMatchObject({ kind: "info", text: "The task was cancelled." });
  });
});
