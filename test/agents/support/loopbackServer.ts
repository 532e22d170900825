/**
 * The core every fake model API shares: an HTTP server on 127.0.0.1 that answers each request with the next
 * scripted handler, records every request (so a test can assert what reached the model), and records any request
 * no handler claimed as unexpected, answered 404, so the test fails on it instead of the agent hanging.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

/** Returns true when it answered the request. */
export type Route = (req: RecordedRequest, res: ServerResponse) => boolean | Promise<boolean>;

export interface LoopbackServer {
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  readonly unexpected: readonly RecordedRequest[];
  close(): Promise<void>;
}

export async function startLoopbackServer(routes: readonly Route[]): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const unexpected: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const rec: RecordedRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(rec);
      void (async () => {
        for (const route of routes) if (await route(rec, res)) return;
        unexpected.push(rec);
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `unexpected request ${rec.method} ${rec.url}` } }));
      })().catch((e: unknown) => {
        unexpected.push(rec);
        if (!res.headersSent) res.writeHead(500);
        res.end(String(e));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    unexpected,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes one server-sent-events stream: each event's `event:` line (when named) and its JSON `data:`. */
export function writeSse(res: ServerResponse, events: readonly { event?: string; data: unknown }[]): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "close" });
  for (const e of events) {
    if (e.event !== undefined) res.write(`event: ${e.event}\n`);
    res.write(`data: ${typeof e.data === "string" ? e.data : JSON.stringify(e.data)}\n\n`);
  }
  res.end();
}
