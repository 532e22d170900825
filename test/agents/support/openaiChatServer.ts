/**
 * A scripted OpenAI chat-completions API (`POST /v1/chat/completions`, `stream: true`) on the loopback core:
 * each model request takes the next scripted turn — a native tool call or a text answer — streamed as
 * `data: {choices: [{delta}]}` chunks, a usage chunk and `data: [DONE]`, the shape OpenAI-compatible clients
 * (Cline 3's `openai-compatible` provider) read. Once the script runs out every further request is answered
 * "done". Extra routes (a page a smuggled `curl` fetches) come first.
 */
import type { ServerResponse } from "node:http";
import { startLoopbackServer, type LoopbackServer, type RecordedRequest, type Route } from "./loopbackServer";

export type ChatTurn =
  { readonly tool: string; readonly args: Readonly<Record<string, unknown>> } | { readonly text: string };

export interface ChatServer extends LoopbackServer {
  /** The model requests, in order (their bodies hold what the agent sent back: tool results). */
  readonly modelRequests: () => readonly RecordedRequest[];
  /** The `role: "tool"` messages of the last model request, as text. */
  readonly lastToolResults: () => string[];
}

function chunk(res: ServerResponse, delta: Record<string, unknown>, finish: string | null = null): void {
  const body = { id: "chatcmpl-toolgate", object: "chat.completion.chunk", created: 1, model: "test-model" };
  res.write(`data: ${JSON.stringify({ ...body, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
}

function streamTurn(res: ServerResponse, turn: ChatTurn, n: number): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "close" });
  if ("tool" in turn) {
    const call = { index: 0, id: `call_${n}`, type: "function", function: { name: turn.tool, arguments: "" } };
    chunk(res, { role: "assistant", content: null, tool_calls: [call] });
    // The arguments in two pieces, as real streams split them.
    const args = JSON.stringify(turn.args);
    const cut = Math.floor(args.length / 2);
    chunk(res, { tool_calls: [{ index: 0, function: { arguments: args.slice(0, cut) } }] });
    chunk(res, { tool_calls: [{ index: 0, function: { arguments: args.slice(cut) } }] });
    chunk(res, {}, "tool_calls");
  } else {
    chunk(res, { role: "assistant", content: turn.text });
    chunk(res, {}, "stop");
  }
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  res.write(
    `data: ${JSON.stringify({ id: "chatcmpl-toolgate", object: "chat.completion.chunk", choices: [], usage })}\n\n`,
  );
  res.write("data: [DONE]\n\n");
  res.end();
}

export async function startChatServer(turns: readonly ChatTurn[], extra: readonly Route[] = []): Promise<ChatServer> {
  let next = 0;
  const model: RecordedRequest[] = [];
  const completions: Route = (req, res) => {
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") return false;
    model.push(req);
    const turn = turns[next] ?? { text: "done" };
    next++;
    streamTurn(res, turn, next);
    return true;
  };
  const server = await startLoopbackServer([...extra, completions]);
  return {
    ...server,
    modelRequests: () => model,
    lastToolResults: () => {
      const last = model[model.length - 1];
      if (!last) return [];
      const body = JSON.parse(last.body) as { messages?: { role: string; content: unknown }[] };
      return (body.messages ?? [])
        .filter((m) => m.role === "tool")
        .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
    },
  };
}
