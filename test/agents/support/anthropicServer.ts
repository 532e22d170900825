/**
 * A fake Anthropic Messages API for Claude Code: `POST /v1/messages` answered as a stream (or one JSON body when
 * the request does not stream) from a script. The script sees each request's parsed body and returns the next
 * turn — text, or one tool use — so a test drives the real agent call by call and reads the tool results it sent
 * back. `count_tokens` is answered with a fixed count; every other path is unexpected.
 */
import type { ServerResponse } from "node:http";
import { startLoopbackServer, writeSse, type LoopbackServer, type RecordedRequest } from "./loopbackServer";

export interface MessagesBody {
  readonly model?: string;
  readonly stream?: boolean;
  readonly system?: unknown;
  readonly tools?: readonly { readonly name: string }[];
  readonly messages: readonly { readonly role: string; readonly content: unknown }[];
}

export type Turn =
  | { readonly text: string }
  | { readonly tool: string; readonly input: Readonly<Record<string, unknown>>; readonly id?: string };

/** Picks the answer to one request; `undefined` ends the conversation with a plain "done". */
export type Script = (body: MessagesBody, index: number) => Turn | undefined;

export interface AnthropicServer extends LoopbackServer {
  /** The /v1/messages bodies, parsed, in order. */
  readonly bodies: readonly MessagesBody[];
}

let toolIds = 0;

function streamTurn(res: ServerResponse, model: string, turn: Turn): void {
  const id = `msg_${Date.now().toString(36)}`;
  const usage = { input_tokens: 10, output_tokens: 5 };
  const start = {
    type: "message_start",
    message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, usage },
  };
  const events: { event: string; data: unknown }[] = [{ event: "message_start", data: start }];
  if ("text" in turn) {
    events.push(
      {
        event: "content_block_start",
        data: { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      },
      {
        event: "content_block_delta",
        data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: turn.text } },
      },
    );
  } else {
    const block = { type: "tool_use", id: turn.id ?? `toolu_${++toolIds}`, name: turn.tool, input: {} };
    const json = JSON.stringify(turn.input);
    events.push(
      { event: "content_block_start", data: { type: "content_block_start", index: 0, content_block: block } },
      {
        event: "content_block_delta",
        data: { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: json } },
      },
    );
  }
  const stop = "text" in turn ? "end_turn" : "tool_use";
  events.push(
    { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
    {
      event: "message_delta",
      data: { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage },
    },
    { event: "message_stop", data: { type: "message_stop" } },
  );
  writeSse(res, events);
}

function jsonTurn(res: ServerResponse, model: string, turn: Turn): void {
  const content =
    "text" in turn
      ? [{ type: "text", text: turn.text }]
      : [{ type: "tool_use", id: turn.id ?? `toolu_${++toolIds}`, name: turn.tool, input: turn.input }];
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      id: `msg_${Date.now().toString(36)}`,
      type: "message",
      role: "assistant",
      model,
      content,
      stop_reason: "text" in turn ? "end_turn" : "tool_use",
      usage: { input_tokens: 10, output_tokens: 5 },
    }),
  );
}

export async function startAnthropicServer(script: Script): Promise<AnthropicServer> {
  const bodies: MessagesBody[] = [];
  const messages = (req: RecordedRequest, res: ServerResponse): boolean => {
    const path = req.url.split("?")[0];
    if (req.method !== "POST") return false;
    if (path === "/v1/messages/count_tokens") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ input_tokens: 10 }));
      return true;
    }
    if (path !== "/v1/messages") return false;
    const body = JSON.parse(req.body) as MessagesBody;
    bodies.push(body);
    const turn = script(body, bodies.length - 1) ?? { text: "done" };
    const model = body.model ?? "claude-test";
    if (body.stream === true) streamTurn(res, model, turn);
    else jsonTurn(res, model, turn);
    return true;
  };
  const server = await startLoopbackServer([messages]);
  return { ...server, bodies };
}

/** The text of every `tool_result` block the agent sent back, oldest first. */
export function toolResults(body: MessagesBody): string[] {
  const out: string[] = [];
  for (const m of body.messages) {
    if (!Array.isArray(m.content)) continue;
    for (const block of m.content as { type?: string; content?: unknown }[]) {
      if (block.type !== "tool_result") continue;
      const c = block.content;
      if (typeof c === "string") out.push(c);
      else if (Array.isArray(c))
        out.push((c as { text?: string }[]).map((p) => (typeof p.text === "string" ? p.text : "")).join(""));
    }
  }
  return out;
}
