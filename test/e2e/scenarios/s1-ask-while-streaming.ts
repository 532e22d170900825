/**
 * Scenario 1: the model streams write_to_file; the approval card appears while the block is
 * still streaming (Approve disabled until the call is complete, nothing on disk); Approve writes exactly
 * the streamed content. Screenshots of the panel with the ask in light and dark.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  answer,
  approvalCard,
  gate,
  modelSettings,
  requestsAtLeast,
  startModel,
  startTask,
  toolResultsIn,
} from "../harness/agent";
import { eventually, openPanel } from "../harness/panel";
import type { Scenario } from "../harness/scenario";

/** 4 KB of text with the characters JSON escaping and chunking like to break. */
function streamedContent(): string {
  const lines: string[] = [];
  for (let i = 0; lines.join("\n").length < 4096; i++)
    lines.push(`line ${i}: "quoted" \\ back\tslash ünïcödé ${"x".repeat(i % 17)}`);
  return lines.join("\n") + "\n";
}

export const askWhileStreaming: Scenario = {
  id: "s1",
  title:
    "write_to_file streams; the ask appears while the block still streams; Approve writes exactly the streamed content",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "script the model: write_to_file(notes/out.txt, 4 KB) in 40 chunks, held after chunk 10",
    "start a task from the panel's task input",
    "while the stream is held: the approval card shows notes/out.txt, says it is still receiving, Approve is disabled, nothing on disk",
    "release the stream; Approve: notes/out.txt equals the streamed content byte for byte; the model gets a success result",
    "screenshot the panel with the ask in light and dark",
  ],
  run: async (ctx) => {
    const content = streamedContent();
    const hold = gate();
    const model = await startModel(ctx, [
      {
        steps: [
          { text: "I will write the notes." },
          {
            tool: "write_to_file",
            args: { path: "notes/out.txt", content },
            chunks: 40,
            pauseAfterChunk: { chunk: 10, until: hold.promise },
          },
        ],
      },
      { steps: [{ tool: "attempt_completion", args: { result: "Wrote notes/out.txt." } }] },
    ]);
    ctx.defer(() => hold.open());
    const session = await ctx.openSession({ settings: modelSettings(ctx, model) });
    const target = join(session.workspace, "notes", "out.txt");
    const frame = await openPanel(session);
    await startTask(frame, "Write the notes file.");

    // The stream is held after chunk 10: the row is there, receiving, and marked as an ask (tg-ask).
    const row = frame.locator(".tg-row.tg-tool", { hasText: "notes/out.txt" }).first();
    await row.waitFor({ timeout: 30_000 });
    await frame.locator(".tg-row.tg-tool.tg-ask", { hasText: "notes/out.txt" }).first().waitFor({ timeout: 10_000 });
    ctx.log("while the block streams: its row is marked as an ask");
    const card = approvalCard(frame);
    const cardWhileStreaming = await card.waitFor({ timeout: 5000 }).then(
      () => true,
      () => false,
    );
    ctx.softCheck(
      cardWhileStreaming,
      "no approval card while write_to_file streams: the row is role 'ask' but the card shows only for askState 'pending', which the agent sets only when the block is complete (src/agent/task/toolCallRun.ts vs webview-ui/src/chat/AskDock.tsx pendingAsk)",
    );
    if (cardWhileStreaming) {
      await card.getByText(/Still receiving the call/).waitFor({ timeout: 5000 });
      assert.equal(
        await card.getByRole("button", { name: "Approve", exact: true }).isDisabled(),
        true,
        "Approve must be disabled while the call streams",
      );
      ctx.log("while the block streams: the card says 'Still receiving the call' and Approve is disabled");
    }
    assert.equal(existsSync(target), false, "nothing may be written before approval");
    for (const shot of await session.screenshotBothThemes("ask-streaming")) ctx.log(`screenshot: ${shot}`);

    hold.open();
    await card.waitFor({ timeout: 20_000 });
    await card.getByText("notes/out.txt").first().waitFor({ timeout: 10_000 });
    await eventually(
      "Approve to be enabled once the call is complete",
      async () => ((await card.getByRole("button", { name: "Approve", exact: true }).isEnabled()) ? true : undefined),
      20_000,
    );
    for (const shot of await session.screenshotBothThemes("ask-complete")) ctx.log(`screenshot: ${shot}`);
    assert.equal(existsSync(target), false, "nothing may be written before approval");
    await answer(card, "Approve");

    await eventually("notes/out.txt on disk", () => (existsSync(target) ? true : undefined), 20_000);
    assert.equal(readFileSync(target, "utf8"), content, "the file differs from the streamed content");
    ctx.log(`Approve: notes/out.txt has exactly the ${content.length} streamed characters`);
    await requestsAtLeast(model, 2);
    const results = toolResultsIn(model, 1);
    assert.equal(results.length, 1, "the model should get one tool result");
    assert.doesNotMatch(results[0]!, /denied|rejected|error/i, `the tool result reports a failure: ${results[0]}`);
    await card.waitFor({ state: "detached", timeout: 10_000 });
  },
};
