/**
 * A scripted OpenAI Responses API (`POST /v1/responses`, SSE of `response.*` events) on the loopback core, the
 * wire format Codex uses with a custom `model_providers` entry (`wire_api = "responses"`). Each model request
 * takes the next turn — a `function_call` or an assistant message — as `response.created`,
 * `response.output_item.added`, `response.output_item.done` and `response.completed`; after the script, "done".
 */
import type { ServerResponse } from "node:http";
import { startLoopbackServer, type LoopbackServer, type RecordedRequest, type Route } from "./loopbackServer";

export type ResponsesTurn =
  { readonly tool: string; readonly args: Readonly<Record<string, unknown>> } | { readonly text: string };

export interface ResponsesServer extends LoopbackServer {
  readonly modelRequests: () => readonly RecordedRequest[];
  /** The `function_call_output` items of the last model request. */
  readonly lastToolOutputs: () => string[];
}

function event(res: ServerResponse, type: string, body: Record<string, unknown>): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`);
}

function streamTurn(res: ServerResponse, turn: ResponsesTurn, n: number): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "close" });
  const id = `resp_${n}`;
  const item =
    "tool" in turn
      ? {
          type: "function_call",
          id: `fc_${n}`,
          call_id: `call_${n}`,
          name: turn.tool,
          arguments: JSON.stringify(turn.args),
        }
      : {
          type: "message",
          id: `msg_${n}`,
          role: "assistant",
          content: [{ type: "output_text", text: turn.text, annotations: [] }],
        };
  event(res, "response.created", { response: { id, object: "response", status: "in_progress", output: [] } });
  event(res, "response.output_item.added", { output_index: 0, item: { ...item, status: "in_progress" } });
  event(res, "response.output_item.done", { output_index: 0, item: { ...item, status: "completed" } });
  const usage = {
    input_tokens: 10,
    output_tokens: 5,
    total_tokens: 15,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  };
  event(res, "response.completed", {
    response: { id, object: "response", status: "completed", output: [{ ...item, status: "completed" }], usage },
  });
  res.end();
}

export async function startResponsesServer(
  turns: readonly ResponsesTurn[],
  extra: readonly Route[] = [],
): Promise<ResponsesServer> {
  let next = 0;
  const model: RecordedRequest[] = [];
  const responses: Route = (req, res) => {
    if (req.method !== "POST" || req.url !== "/v1/responses") return false;
    model.push(req);
    next++;
    streamTurn(res, turns[next - 1] ?? { text: "done" }, next);
    return true;
  };
  const server = await startLoopbackServer([...extra, responses]);
  return {
    ...server,
    modelRequests: () => model,
    lastToolOutputs: () => {
      const last = model[model.length - 1];
      if (!last) return [];
      const body = JSON.parse(last.body) as { input?: { type?: string; output?: unknown }[] };
      return (body.input ?? [])
        .filter((i) => i.type === "function_call_output")
        .map((i) => (typeof i.output === "string" ? i.output : JSON.stringify(i.output)));
    },
  };
}
