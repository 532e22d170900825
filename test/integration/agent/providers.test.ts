import { afterEach, describe, expect, it } from "vitest";
import { startScriptedModel, type ScriptedModel, type ScriptedTurn } from "../../support/scriptedModel";
import { OpenAiCompatibleProvider } from "../../../src/agent/providers/openai";
import { AnthropicProvider } from "../../../src/agent/providers/anthropic";
import {
  ProviderError,
  type ConversationMessage,
  type ModelProvider,
  type RetryInfo,
} from "../../../src/agent/providers/types";
import { TurnAssembler } from "../../../src/agent/streaming/turn";
import { retryAfterMs } from "../../../src/agent/providers/http";
import { TOOL_DEFINITIONS } from "../../../src/agent/tools/definitions";

const FAST = { maxRetries: 3, baseDelayMs: 5, maxDelayMs: 50 };
let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

type Format = "openai" | "anthropic";
function providerFor(
  format: Format,
  m: ScriptedModel,
  name = format === "openai" ? "gpt-4o" : "claude-sonnet-4-5",
): ModelProvider {
  return format === "openai"
    ? new OpenAiCompatibleProvider({ baseUrl: m.openAiBaseUrl, model: name, apiKey: "sk-test", retry: FAST })
    : new AnthropicProvider({ baseUrl: m.anthropicBaseUrl, model: name, apiKey: "ak-test", retry: FAST });
}

async function run(
  p: ModelProvider,
  messages: ConversationMessage[] = [{ role: "user", content: [{ type: "text", text: "hi" }] }],
) {
  const turn = new TurnAssembler();
  const retries: RetryInfo[] = [];
  let error: unknown;
  try {
    for await (const ev of p.stream({
      system: "SYS",
      messages,
      tools: TOOL_DEFINITIONS,
      signal: new AbortController().signal,
      onRetry: (r) => retries.push(r),
    }))
      turn.handle(ev);
  } catch (e) {
    error = e;
    turn.interrupt();
  }
  return { turn, retries, error };
}

async function serve(...turns: ScriptedTurn[]): Promise<ScriptedModel> {
  model = await startScriptedModel(turns);
  return model;
}

describe.each<Format>(["openai", "anthropic"])("%s streaming", (format) => {
  it("streams text and a tool call split into many chunks, with usage", async () => {
    const m = await serve({
      steps: [
        { text: "I'll write it.", chunks: 4 },
        { tool: "write_to_file", args: { path: "src/a.ts", content: 'const s = "é\\n";\n'.repeat(50) }, chunks: 97 },
      ],
      usage: { input: 1200, output: 340 },
    });
    const { turn, error } = await run(providerFor(format, m));
    expect(error).toBeUndefined();
    expect(turn.text).toBe("I'll write it.");
    const [block] = turn.toolBlocks;
    expect(block!.state).toBe("complete");
    expect(block!.name).toBe("write_to_file");
    expect(block!.params).toEqual({ path: "src/a.ts", content: 'const s = "é\\n";\n'.repeat(50) });
    expect(turn.usage.inputTokens).toBe(1200);
    expect(turn.usage.outputTokens).toBe(340);
    expect(turn.ended).toBe(true);
  });

  it("sends the system prompt, every tool's schema and the conversation in the native shape", async () => {
    const m = await serve({ steps: [{ text: "ok" }] });
    await run(providerFor(format, m), [
      { role: "user", content: [{ type: "text", text: "task" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "reading" },
          { type: "tool_use", id: "c1", name: "read_file", input: { path: "a" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", toolUseId: "c1", content: "file text" },
          { type: "text", text: "note" },
        ],
      },
    ]);
    const body = m.requests[0]!.body;
    if (format === "openai") {
      expect(m.requests[0]!.headers.authorization).toBe("Bearer sk-test");
      expect(body.stream_options).toEqual({ include_usage: true });
      const messages = body.messages as {
        role: string;
        content?: string;
        tool_calls?: unknown[];
        tool_call_id?: string;
      }[];
      expect(messages.map((x) => x.role)).toEqual(["system", "user", "assistant", "tool", "user"]);
      expect(messages[0]!.content).toBe("SYS");
      expect(messages[2]!.tool_calls).toEqual([
        { id: "c1", type: "function", function: { name: "read_file", arguments: '{"path":"a"}' } },
      ]);
      expect(messages[3]).toMatchObject({ tool_call_id: "c1", content: "file text" });
      const tools = body.tools as { function: { name: string; parameters: { required: string[] } } }[];
      expect(tools.map((t) => t.function.name)).toEqual(TOOL_DEFINITIONS.map((d) => d.name));
      expect(tools.find((t) => t.function.name === "write_to_file")!.function.parameters.required).toEqual([
        "path",
        "content",
      ]);
    } else {
      expect(m.requests[0]!.headers["x-api-key"]).toBe("ak-test");
      expect(m.requests[0]!.headers["anthropic-version"]).toBe("2023-06-01");
      expect(body.system).toBe("SYS");
      const messages = body.messages as { role: string; content: { type: string }[] }[];
      expect(messages.map((x) => x.role)).toEqual(["user", "assistant", "user"]);
      expect(messages[2]!.content).toEqual([
        { type: "tool_result", tool_use_id: "c1", content: "file text" },
        { type: "text", text: "note" },
      ]);
      const tools = body.tools as { name: string; input_schema: { required: string[] } }[];
      expect(tools.find((t) => t.name === "execute_command")!.input_schema.required).toEqual(["command"]);
    }
  });

  it("a stream cut inside a tool call fails as 'cut' after output and leaves the block interrupted", async () => {
    const m = await serve({
      steps: [
        { text: "running" },
        { tool: "execute_command", args: { command: "echo hi && rm -rf build" }, chunks: 10, cutAfterChunk: 4 },
      ],
    });
    const { turn, error, retries } = await run(providerFor(format, m));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).afterOutput).toBe(true);
    expect(turn.toolBlocks[0]!.state).toBe("interrupted");
    expect(retries).toEqual([]);
    expect(m.requests).toHaveLength(1);
  });

  it("malformed tool-argument JSON gives the block a clear error", async () => {
    const m = await serve({ steps: [{ tool: "read_file", args: '{"path": "a.ts",, }', chunks: 3 }] });
    const { turn, error } = await run(providerFor(format, m));
    expect(error).toBeUndefined();
    expect(turn.toolBlocks[0]!.state).toBe("error");
    expect(turn.toolBlocks[0]!.error).toMatch(/read_file were not valid JSON/);
  });

  it("retries a 429 honouring retry-after, then streams the answer", async () => {
    const m = await serve(
      { status: 429, retryAfter: 0, message: "slow down" },
      { status: 503 },
      { steps: [{ text: "done" }] },
    );
    const { turn, error, retries } = await run(providerFor(format, m));
    expect(error).toBeUndefined();
    expect(turn.text).toBe("done");
    expect(retries.map((r) => r.delayMs)).toEqual([0, 10]);
    expect(retries[0]!.reason).toMatch(/429.*slow down/);
    expect(m.requests).toHaveLength(3);
  });

  it("does not retry a 400 and reports the server's message", async () => {
    const m = await serve({ status: 400, message: "bad tool schema" }, { steps: [{ text: "never" }] });
    const { error, retries } = await run(providerFor(format, m));
    expect((error as ProviderError).message).toMatch(/400.*bad tool schema/);
    expect(retries).toEqual([]);
    expect(m.remaining()).toBe(1);
  });

  it("retries an overloaded error event that comes before any output, never one after output", async () => {
    const m = await serve(
      { steps: [{ error: { type: "overloaded_error", message: "busy" } }] },
      { steps: [{ text: "first" }, { error: { type: "overloaded_error", message: "busy" } }] },
      { steps: [{ text: "unused" }] },
    );
    const { turn, error, retries } = await run(providerFor(format, m));
    expect(retries).toHaveLength(1);
    expect(turn.text).toBe("first");
    expect((error as ProviderError).afterOutput).toBe(true);
    expect((error as ProviderError).message).toMatch(/busy/);
    expect(m.remaining()).toBe(1);
  });

  it("gives up after the retry budget with the last error", async () => {
    const m = await serve({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    const { error, retries } = await run(providerFor(format, m));
    expect(retries).toHaveLength(3);
    expect((error as ProviderError).status).toBe(500);
  });

  it("streams several tool calls in one turn, each complete", async () => {
    const m = await serve({
      steps: [
        { tool: "read_file", args: { path: "a" }, chunks: 3 },
        { tool: "list_files", args: { path: ".", recursive: true }, chunks: 5 },
      ],
    });
    const { turn } = await run(providerFor(format, m));
    expect(turn.toolBlocks.map((b) => [b.name, b.state, b.params])).toEqual([
      ["read_file", "complete", { path: "a" }],
      ["list_files", "complete", { path: ".", recursive: true }],
    ]);
  });
});

describe("retry-after", () => {
  it("reads seconds, milliseconds and HTTP dates", () => {
    expect(retryAfterMs(new Headers({ "retry-after": "2" }))).toBe(2000);
    expect(retryAfterMs(new Headers({ "retry-after-ms": "150", "retry-after": "9" }))).toBe(150);
    expect(retryAfterMs(new Headers({ "retry-after": new Date(10_000).toUTCString() }), 4_000)).toBe(6000);
    expect(retryAfterMs(new Headers({ "retry-after": "soon" }))).toBeUndefined();
  });
});
