/**
 * A scripted fake of the Gemini API (`generativelanguage.googleapis.com`) as Gemini CLI 0.61 calls it through
 * `GOOGLE_GEMINI_BASE_URL`: `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` answered with server-sent
 * events, each a `GenerateContentResponse` whose `candidates[0].content.parts` hold the scripted `text` or
 * `functionCall {name, args}`. Each streamed request takes the next scripted turn; once the script is used up the
 * model says it is done, so a run always ends. The tool result reaches the model in the next request as a
 * `functionResponse` part, which `functionResponses` reads back out of the recorded bodies.
 *
 * `countTokens` is answered (Gemini CLI counts before it sends); anything else is left to the loopback core, which
 * records it as unexpected.
 */
import type { ServerResponse } from "node:http";
import { startLoopbackServer, writeSse, type LoopbackServer, type RecordedRequest, type Route } from "./loopbackServer";

export type GeminiTurn =
  { readonly call: { readonly name: string; readonly args: Record<string, unknown> } } | { readonly text: string };

export interface GeminiServer extends LoopbackServer {
  /** The streamed model requests, in order (the conversation as the agent sent it each time). */
  readonly modelRequests: () => readonly RecordedRequest[];
}

const STREAM = /^\/v1beta\/models\/[^/:]+:streamGenerateContent(\?|$)/;
const COUNT = /^\/v1beta\/models\/[^/:]+:countTokens(\?|$)/;

function candidate(turn: GeminiTurn): unknown {
  const part = "call" in turn ? { functionCall: { name: turn.call.name, args: turn.call.args } } : { text: turn.text };
  return {
    candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: "gemini-2.5-flash",
  };
}

/** `extra` answers other paths on the same server (a payload a smuggled `curl` would fetch). */
export async function startGeminiServer(
  turns: readonly GeminiTurn[],
  extra: readonly Route[] = [],
): Promise<GeminiServer> {
  let next = 0;
  const modelRequests: RecordedRequest[] = [];
  const stream = (req: RecordedRequest, res: ServerResponse): boolean => {
    if (req.method !== "POST" || !STREAM.test(req.url)) return false;
    modelRequests.push(req);
    const turn = turns[next] ?? { text: "Done." };
    next++;
    writeSse(res, [{ data: candidate(turn) }]);
    return true;
  };
  const count = (req: RecordedRequest, res: ServerResponse): boolean => {
    if (req.method !== "POST" || !COUNT.test(req.url)) return false;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ totalTokens: 10 }));
    return true;
  };
  const server = await startLoopbackServer([stream, count, ...extra]);
  return { ...server, modelRequests: () => modelRequests };
}

interface Part {
  readonly text?: string;
  readonly functionCall?: { readonly name?: string; readonly args?: unknown };
  readonly functionResponse?: { readonly name?: string; readonly response?: unknown };
}

/** Every `functionResponse` part the agent sent to the model, in order, with its response as JSON text. */
export function functionResponses(server: GeminiServer): { readonly name: string; readonly output: string }[] {
  const seen = new Set<string>();
  const out: { name: string; output: string }[] = [];
  for (const req of server.modelRequests()) {
    const body = JSON.parse(req.body) as { contents?: { parts?: Part[] }[] };
    for (const c of body.contents ?? [])
      for (const p of c.parts ?? []) {
        if (!p.functionResponse) continue;
        const entry = { name: p.functionResponse.name ?? "", output: JSON.stringify(p.functionResponse.response) };
        const key = `${entry.name}\u0000${entry.output}`;
        // Each request repeats the whole conversation: keep each response once.
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(entry);
      }
  }
  return out;
}
