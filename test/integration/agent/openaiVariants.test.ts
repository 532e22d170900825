import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OpenAiCompatibleProvider } from "../../../src/agent/providers/openai";
import { TurnAssembler } from "../../../src/agent/streaming/turn";
import { ProviderError } from "../../../src/agent/providers/types";

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

/** Serves one fixed SSE body (raw lines), as some OpenAI-compatible servers do. */
async function serveRaw(body: string): Promise<string> {
  server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(body);
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

async function collect(baseUrl: string) {
  const p = new OpenAiCompatibleProvider({
    baseUrl,
    model: "llama3",
    retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 },
  });
  const t = new TurnAssembler();
  let error: unknown;
  try {
    for await (const ev of p.stream({ system: "s", messages: [], tools: [], signal: new AbortController().signal }))
      t.handle(ev);
  } catch (e) {
    error = e;
    t.interrupt();
  }
  return { t, error };
}

const chunk = (delta: unknown, finish: string | null = null) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

describe("OpenAI-compatible wire variants", () => {
  it("a whole tool call in one delta (Ollama style), CRLF lines, no [DONE] after finish_reason", async () => {
    const body = (
      chunk({ role: "assistant", content: "" }) +
      chunk({
        tool_calls: [{ index: 0, id: "call_1", function: { name: "read_file", arguments: '{"path":"a.ts"}' } }],
      }) +
      chunk({}, "tool_calls")
    ).replace(/\n/g, "\r\n");
    const { t, error } = await collect(await serveRaw(body));
    expect(error).toBeUndefined();
    expect(t.toolBlocks.map((b) => [b.id, b.name, b.state, b.params])).toEqual([
      ["call_1", "read_file", "complete", { path: "a.ts" }],
    ]);
  });

  it("arguments arriving before the name are kept; parallel calls end as the next index starts", async () => {
    const body =
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"pa' } }] }) +
      chunk({ tool_calls: [{ index: 0, id: "c0", function: { name: "read_file", arguments: 'th":"x"}' } }] }) +
      chunk({ tool_calls: [{ index: 1, id: "c1", function: { name: "list_files", arguments: '{"path":"."}' } }] }) +
      chunk({}, "tool_calls") +
      "data: [DONE]\n\n";
    const { t } = await collect(await serveRaw(body));
    expect(t.toolBlocks.map((b) => [b.name, b.state, b.params])).toEqual([
      ["read_file", "complete", { path: "x" }],
      ["list_files", "complete", { path: "." }],
    ]);
  });

  it("a body that ends with neither finish_reason nor [DONE] is a cut stream", async () => {
    const { t, error } = await collect(
      await serveRaw(
        chunk({ tool_calls: [{ index: 0, id: "c", function: { name: "read_file", arguments: '{"path":"x"}' } }] }),
      ),
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe("cut");
    expect(t.toolBlocks[0]!.state).toBe("interrupted");
  });

  it("reasoning_content streams as reasoning, not text; an unreadable chunk is a protocol error", async () => {
    const ok = await collect(
      await serveRaw(
        chunk({ reasoning_content: "thinking" }) + chunk({ content: "answer" }, "stop") + "data: [DONE]\n\n",
      ),
    );
    expect(ok.t.text).toBe("answer");
    const bad = await collect(await serveRaw("data: {not json\n\n"));
    expect((bad.error as ProviderError).kind).toBe("protocol");
  });
});
