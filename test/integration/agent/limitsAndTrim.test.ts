import { afterEach, describe, expect, it } from "vitest";
import { startHarness, toolResultsIn, type Harness } from "../../support/agentHarness";
import type { DiffReviewer } from "../../../src/agent/env";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const read = (path: string) => ({ steps: [{ tool: "read_file", args: { path } }] });
const completion = { steps: [{ tool: "attempt_completion", args: { result: "ok" } }] };

describe("limits", () => {
  it("maxRequests reached: a 'reset and continue' ask, then the call runs", async () => {
    h = await startHarness({
      files: { "a.txt": "A", "b.txt": "B" },
      settings: { "toolgate.autoApprove.maxRequests": 1 },
      turns: [read("a.txt"), read("b.txt"), completion],
      answer: (m) => (m.kind === "limit" ? { kind: "resetLimits" } : { kind: "approve" }),
    });
    expect(await h.task.run()).toBe("completed");
    const limit = h.view.find((m) => m.kind === "limit")!;
    expect(limit.text).toBe("the task reached its limit of 1 auto-approved requests");
    expect(limit.askState).toBe("answered");
    expect(toolResultsIn(h.model, 2)).toEqual(["A", "B"]);
  });

  it("maxCost: token usage is priced per model and the next call asks once the tree spent the limit", async () => {
    let limits = 0;
    h = await startHarness({
      format: "anthropic",
      files: { "a.txt": "A" },
      settings: { "toolgate.autoApprove.maxCost": 2 },
      // 1M input tokens of claude-sonnet-4-5 = $3.
      turns: [
        { ...read("a.txt"), usage: { input: 1_000_000, output: 0 } },
        { ...completion, usage: { input: 0, output: 0 } },
        { ...completion, usage: { input: 0, output: 0 } },
      ],
      // The first limit ask is refused; from then on every call would ask, so the next one resets.
      answer: (m) =>
        m.kind === "limit"
          ? limits++ === 0
            ? { kind: "reject", text: "too expensive" }
            : { kind: "resetLimits" }
          : { kind: "approve" },
    });
    expect(await h.task.run()).toBe("completed");
    const api = h.view.find((m) => m.kind === "api_request")!;
    expect(api.usage).toEqual({ inputTokens: 1_000_000, outputTokens: 0, costUsd: 3 });
    expect(h.config.tree.costUsd).toBe(3);
    expect(h.view.find((m) => m.kind === "limit")!.text).toMatch(/cost limit of \$2\.00 \(spent \$3\.00\)/);
    expect(toolResultsIn(h.model, 1)[0]).toBe("The person rejected this call. Their feedback: too expensive");
  });
});

describe("trimming", () => {
  it("a conversation past the context window is trimmed oldest-first and the person is told", async () => {
    const big = "y".repeat(20_000);
    h = await startHarness({
      files: { "1.txt": big, "2.txt": big, "3.txt": big },
      turns: [read("1.txt"), read("2.txt"), read("3.txt"), completion],
      answer: () => ({ kind: "approve" }),
      // A 20k-token window, minus the reserve: room for about two file reads.
      deps: { outputReserve: 4000 },
      model: "tiny-local-model",
    });
    (h.task as unknown as { deps: { provider: { contextWindow: number } } }).deps.provider.contextWindow = 20_000;
    expect(await h.task.run()).toBe("completed");
    const info = h.view.find((m) => m.kind === "info" && m.text.startsWith("Removed the"));
    expect(info?.text).toBe(
      "Removed the 2 oldest messages of the conversation so it fits the model's context window (20000 tokens).",
    );
    const last = h.model.requests.at(-1)!.body.messages as { role: string; content: string }[];
    expect(last[1]!.content).toContain("earlier messages of this conversation were removed");
    // The oldest exchange (reading 1.txt) is gone from what the model received; the latest is there.
    expect(JSON.stringify(last)).not.toContain("1.txt");
    expect(JSON.stringify(last)).toContain("3.txt");
  });
});

describe("new_task and streaming diffs", () => {
  it("new_task always asks; approved, the host starts it and this task ends", async () => {
    const started: string[] = [];
    h = await startHarness({
      turns: [{ steps: [{ tool: "new_task", args: { context: "continue with part 2" } }] }],
      answer: () => ({ kind: "approve" }),
      env: { newTask: (ctx) => (started.push(ctx), Promise.resolve("t-2")) },
    });
    expect(await h.task.run()).toBe("completed");
    expect(started).toEqual(["continue with part 2"]);
    expect(h.asks.asks[0]!.message.tool!.decision).toMatchObject({ decision: "ask", rule: "tool:never-auto" });
  });

  it("write_to_file that asks streams into the diff while it arrives; the person's edit is saved", async () => {
    const seen: string[] = [];
    const diff: DiffReviewer = {
      open(_path, original) {
        seen.push(`open:${original ?? "(new)"}`);
        let text = "";
        return Promise.resolve({
          append: (t) => void (text += t),
          setContent: (t) => void (seen.push(`set:${t.length}`), (text = t)),
          result: () => Promise.resolve({ content: text + "// reviewed\n", edited: true }),
          close: () => (seen.push(`close:${text.length}`), Promise.resolve()),
        });
      },
    };
    const content = "line\n".repeat(200);
    h = await startHarness({
      diff,
      turns: [{ steps: [{ tool: "write_to_file", args: { path: "w.ts", content }, chunks: 50 }] }, completion],
      answer: () => ({ kind: "approve" }),
    });
    expect(await h.task.run()).toBe("completed");
    expect(h.read("w.ts")).toBe(content + "// reviewed\n");
    expect(seen[0]).toBe("open:(new)");
    expect(seen.at(-1)).toBe(`close:${content.length}`);
    expect(toolResultsIn(h.model, 1)[0]).toContain("The person edited your changes before they were created.");
  });
});
