import { afterEach, describe, expect, it } from "vitest";
import { createServer } from "node:net";
import { OpenAiCompatibleProvider } from "../../../src/agent/providers/openai";
import { startHarness, type Harness } from "../../support/agentHarness";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

async function unreachable(answer: Parameters<typeof startHarness>[0]["answer"]) {
  const port = await closedPort();
  const provider = new OpenAiCompatibleProvider({
    baseUrl: `http://127.0.0.1:${port}/v1`,
    model: "gpt-4o",
    apiKey: "sk-test",
    // Long waits: the test proves "Retry now" skips them (it would time out otherwise).
    retry: { maxRetries: 5, baseDelayMs: 60_000, maxDelayMs: 60_000 },
  });
  h = await startHarness({ turns: [], answer, deps: { provider } });
  return { port, h };
}

describe("an unreachable model", () => {
  it("is one row that counts its retries, says what happened, and asks once the retries are used up", async () => {
    const { port, h } = await unreachable((m) =>
      m.retry?.at !== undefined ? { kind: "approve" } : { kind: "reject" },
    );
    const t0 = Date.now();
    expect(await h.task.run()).toBe("failed");
    const errors = h.view.filter((m) => m.kind === "error");
    expect(errors).toHaveLength(1);
    expect(h.view.filter((m) => m.kind === "info" && /retr/i.test(m.text))).toEqual([]);
    const row = errors[0]!;
    const where = `http://127.0.0.1:${port}/v1/chat/completions`;
    expect(row.text).toBe(`The model request failed: Could not connect to ${where} (ECONNREFUSED)`);
    expect(row.text).not.toMatch(/answered/);
    expect(row.retry).toEqual({ attempt: 6, of: 6 });
    // Every retry was announced on that same row, with its number and its time, and "Retry now" skipped the wait.
    const countdowns = h.asks.asks.filter((a) => a.message.retry?.at !== undefined);
    expect(countdowns.map((a) => a.messageId)).toEqual(Array(5).fill(row.id));
    expect(countdowns.map((a) => `${a.message.retry!.attempt} of ${a.message.retry!.of}`)).toEqual([
      "2 of 6",
      "3 of 6",
      "4 of 6",
      "5 of 6",
      "6 of 6",
    ]);
    for (const a of countdowns) expect(a.message.retry!.at! - t0).toBeGreaterThanOrEqual(59_000);
    expect(countdowns[0]!.message.text).toBe(`Could not connect to ${where} (ECONNREFUSED)`);
    // The countdown never made the task wait on the person; only the final ask did.
    const finalAsk = h.asks.asks.at(-1)!;
    expect(finalAsk.message.retry).toEqual({ attempt: 6, of: 6 });
    expect(finalAsk.message.role).toBe("ask");
  });

  it("Stop during the countdown ends the task without asking again", async () => {
    const { h } = await unreachable(() => ({ kind: "reject" }));
    expect(await h.task.run()).toBe("failed");
    const errors = h.view.filter((m) => m.kind === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]!.text).toMatch(/\(ECONNREFUSED\) Stopped after 1 attempt\.$/);
    expect(errors[0]!).toMatchObject({ role: "say", askState: "answered", retry: { attempt: 1, of: 1 } });
    expect(h.asks.asks).toHaveLength(1);
  });
});
