/**
 * Scripted model server: a loopback HTTP server that answers model requests from scripted turns in the
 * real streaming wire formats, and records every request body. Plain Node (no test-framework imports),
 * so unit tests, the bench and the e2e suite can all use it.
 *
 * API
 *   const model = await startScriptedModel([turn, turn, ...]);   // listens on 127.0.0.1:<random>
 *   model.openAiBaseUrl      // "http://127.0.0.1:PORT/v1"  → POST /v1/chat/completions (OpenAI chunks)
 *   model.anthropicBaseUrl   // "http://127.0.0.1:PORT"     → POST /v1/messages (Anthropic events)
 *   model.push(turn, ...)    // queue more turns; each request consumes the next turn, whatever its format
 *   model.requests           // RecordedRequest[]: { format, path, headers, body } in arrival order
 *   await model.close()
 * With no turn left a request gets HTTP 500 "no scripted turn left" (so a runaway loop fails loudly).
 *
 * A turn is either an HTTP error (`{ status: 429, retryAfter: 0, message }`) or a list of steps:
 *   { text: "…", chunks?: n }                       assistant text split into n deltas (default 1)
 *   { reasoning: "…", chunks?: n }                  thinking / reasoning_content deltas
 *   { tool: "write_to_file", args: {...} | "raw", id?, chunks?: n,
 *     cutAfterChunk?: k,                            close the connection after k argument chunks (cut stream)
 *     pauseAfterChunk?: { chunk: k, until: Promise<unknown> } }   hold the stream until `until` settles
 *   { error: { type: "overloaded_error", message: "…" } }  an in-stream error event (Anthropic `error`,
 *                                                         OpenAI `{"error": …}` chunk); the stream ends there
 *   { cut: true }                                   close the connection here, without any end marker
 * Turn options: `stop` (finish/stop reason; defaults from the content), `usage: {input, output}`,
 * `delayMs` between writes. `args` given as a string is sent verbatim (for malformed JSON); an object is
 * JSON-encoded first and then split, so escapes may straddle chunks just as with real services.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type ScriptedStep =
  | { readonly text: string; readonly chunks?: number }
  | { readonly reasoning: string; readonly chunks?: number }
  | {
      readonly tool: string;
      readonly args: unknown;
      readonly id?: string;
      readonly chunks?: number;
      readonly cutAfterChunk?: number;
      readonly pauseAfterChunk?: { readonly chunk: number; readonly until: Promise<unknown> };
    }
  | { readonly error: { readonly type: string; readonly message: string } }
  | { readonly cut: true };

export interface ScriptedStreamTurn {
  readonly steps: readonly ScriptedStep[];
  readonly stop?: string;
  readonly usage?: { readonly input: number; readonly output: number };
  readonly delayMs?: number;
}

export interface ScriptedErrorTurn {
  readonly status: number;
  readonly retryAfter?: number;
  readonly message?: string;
}

export type ScriptedTurn = ScriptedStreamTurn | ScriptedErrorTurn;

export interface RecordedRequest {
  readonly format: "openai" | "anthropic";
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: Record<string, unknown>;
}

export interface ScriptedModel {
  readonly url: string;
  readonly openAiBaseUrl: string;
  readonly anthropicBaseUrl: string;
  readonly requests: RecordedRequest[];
  push(...turns: ScriptedTurn[]): void;
  /** Turns not consumed yet. */
  remaining(): number;
  close(): Promise<void>;
}

export function splitEven(text: string, n: number): string[] {
  const parts = Math.max(1, Math.min(n, text.length || 1));
  const size = Math.ceil(text.length / parts);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [""];
}

class Cut extends Error {}

/** Cuts the connection after what was written has reached the socket, like a dropped upstream would. */
async function cut(res: ServerResponse): Promise<never> {
  await new Promise<void>((resolve) => res.write("", () => resolve()));
  res.socket?.end();
  res.socket?.destroy();
  throw new Cut();
}

/** Writes one response; resolves when done, throws Cut when the script cuts the stream. */
type Writer = (res: ServerResponse, turn: ScriptedStreamTurn, req: Record<string, unknown>) => Promise<void>;

function makeSender(res: ServerResponse, delayMs: number) {
  return async (text: string): Promise<void> => {
    if (res.destroyed) throw new Cut();
    const ok = res.write(text);
    if (!ok) await new Promise<void>((r) => res.once("drain", () => r()));
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
  };
}

function argsText(args: unknown): string {
  return typeof args === "string" ? args : JSON.stringify(args);
}

function defaultUsage(turn: ScriptedStreamTurn, req: Record<string, unknown>): { input: number; output: number } {
  if (turn.usage) return turn.usage;
  let out = 0;
  for (const s of turn.steps) {
    if ("text" in s) out += s.text.length;
    else if ("reasoning" in s) out += s.reasoning.length;
    else if ("tool" in s) out += argsText(s.args).length;
  }
  return { input: Math.ceil(JSON.stringify(req).length / 4), output: Math.ceil(out / 4) };
}

async function toolChunks(
  step: Extract<ScriptedStep, { tool: string }>,
  send: (piece: string) => Promise<void>,
  res: ServerResponse,
): Promise<void> {
  const parts = splitEven(argsText(step.args), step.chunks ?? 1);
  for (let i = 0; i < parts.length; i++) {
    await send(parts[i]!);
    if (step.pauseAfterChunk && step.pauseAfterChunk.chunk === i + 1)
      await step.pauseAfterChunk.until.catch(() => undefined);
    if (step.cutAfterChunk !== undefined && step.cutAfterChunk === i + 1) await cut(res);
  }
}

const writeOpenAi: Writer = async (res, turn, req) => {
  const send = makeSender(res, turn.delayMs ?? 0);
  const base = {
    id: "chatcmpl-scripted",
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model: String(req.model ?? "scripted"),
  };
  const chunk = (delta: unknown, finish: string | null = null): string =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  await send(chunk({ role: "assistant", content: "" }));
  let toolIndex = 0;
  let sawTool = false;
  for (const step of turn.steps) {
    if ("cut" in step) {
      await cut(res);
    } else if ("error" in step) {
      await send(
        `data: ${JSON.stringify({ error: { message: step.error.message, type: step.error.type, code: null } })}\n\n`,
      );
      res.end();
      return;
    } else if ("text" in step) {
      for (const part of splitEven(step.text, step.chunks ?? 1)) await send(chunk({ content: part }));
    } else if ("reasoning" in step) {
      for (const part of splitEven(step.reasoning, step.chunks ?? 1)) await send(chunk({ reasoning_content: part }));
    } else {
      sawTool = true;
      const index = toolIndex++;
      await send(
        chunk({
          tool_calls: [
            {
              index,
              id: step.id ?? `call_${index}_${Math.random().toString(36).slice(2, 8)}`,
              type: "function",
              function: { name: step.tool, arguments: "" },
            },
          ],
        }),
      );
      await toolChunks(step, (piece) => send(chunk({ tool_calls: [{ index, function: { arguments: piece } }] })), res);
    }
  }
  await send(chunk({}, turn.stop ?? (sawTool ? "tool_calls" : "stop")));
  const streamOptions = req.stream_options as { include_usage?: boolean } | undefined;
  if (streamOptions?.include_usage) {
    const u = defaultUsage(turn, req);
    await send(
      `data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: u.input, completion_tokens: u.output, total_tokens: u.input + u.output } })}\n\n`,
    );
  }
  await send("data: [DONE]\n\n");
  res.end();
};

const writeAnthropic: Writer = async (res, turn, req) => {
  const send = makeSender(res, turn.delayMs ?? 0);
  const ev = (type: string, data: Record<string, unknown>): string =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const u = defaultUsage(turn, req);
  await send(
    ev("message_start", {
      message: {
        id: "msg_scripted",
        type: "message",
        role: "assistant",
        model: String(req.model ?? "scripted"),
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: u.input, output_tokens: 1 },
      },
    }),
  );
  await send(ev("ping", {}));
  let index = 0;
  let sawTool = false;
  for (const step of turn.steps) {
    if ("cut" in step) {
      await cut(res);
    } else if ("error" in step) {
      await send(ev("error", { error: { type: step.error.type, message: step.error.message } }));
      res.end();
      return;
    } else if ("text" in step) {
      await send(ev("content_block_start", { index, content_block: { type: "text", text: "" } }));
      for (const part of splitEven(step.text, step.chunks ?? 1))
        await send(ev("content_block_delta", { index, delta: { type: "text_delta", text: part } }));
      await send(ev("content_block_stop", { index }));
      index++;
    } else if ("reasoning" in step) {
      await send(ev("content_block_start", { index, content_block: { type: "thinking", thinking: "" } }));
      for (const part of splitEven(step.reasoning, step.chunks ?? 1))
        await send(ev("content_block_delta", { index, delta: { type: "thinking_delta", thinking: part } }));
      await send(ev("content_block_delta", { index, delta: { type: "signature_delta", signature: "c2lnbmF0dXJl" } }));
      await send(ev("content_block_stop", { index }));
      index++;
    } else {
      sawTool = true;
      const id = step.id ?? `toolu_${index}_${Math.random().toString(36).slice(2, 8)}`;
      await send(
        ev("content_block_start", { index, content_block: { type: "tool_use", id, name: step.tool, input: {} } }),
      );
      const i = index;
      await toolChunks(
        step,
        (piece) =>
          send(ev("content_block_delta", { index: i, delta: { type: "input_json_delta", partial_json: piece } })),
        res,
      );
      await send(ev("content_block_stop", { index }));
      index++;
    }
  }
  await send(
    ev("message_delta", {
      delta: { stop_reason: turn.stop ?? (sawTool ? "tool_use" : "end_turn"), stop_sequence: null },
      usage: { output_tokens: u.output },
    }),
  );
  await send(ev("message_stop", {}));
  res.end();
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

export async function startScriptedModel(turns: readonly ScriptedTurn[] = []): Promise<ScriptedModel> {
  const queue: ScriptedTurn[] = [...turns];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();

  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? "").split("?")[0]!;
      const format = path.endsWith("/chat/completions")
        ? "openai"
        : path.endsWith("/messages")
          ? "anthropic"
          : undefined;
      const raw = await readBody(req);
      if (req.method !== "POST" || !format) {
        res
          .writeHead(404, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }));
        return;
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        res
          .writeHead(400, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: "request body is not JSON" } }));
        return;
      }
      requests.push({ format, path, headers: req.headers, body });
      const turn = queue.shift();
      if (!turn) {
        res
          .writeHead(500, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { type: "api_error", message: "no scripted turn left" } }));
        return;
      }
      if ("status" in turn) {
        const headers: Record<string, string> = { "content-type": "application/json" };
        if (turn.retryAfter !== undefined) headers["retry-after"] = String(turn.retryAfter);
        const type = turn.status === 429 ? "rate_limit_error" : "api_error";
        res
          .writeHead(turn.status, headers)
          .end(JSON.stringify({ type: "error", error: { type, message: turn.message ?? `scripted ${turn.status}` } }));
        return;
      }
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        connection: "keep-alive",
      });
      try {
        await (format === "openai" ? writeOpenAi : writeAnthropic)(res, turn, body);
      } catch (e) {
        if (!(e instanceof Cut)) res.destroy();
      }
    })();
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    openAiBaseUrl: `${url}/v1`,
    anthropicBaseUrl: url,
    requests,
    push: (...more) => void queue.push(...more),
    remaining: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
