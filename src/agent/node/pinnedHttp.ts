/**
 * One HTTP(S) request to an address checked in advance: the connection goes to `address`, whatever DNS says
 * now (a custom `lookup` answers with it), so a name cannot resolve to a public address for the decision and
 * to a private one for the connection (DNS rebinding). TLS still verifies the certificate for the URL's host
 * name. Redirects are not followed: the caller decides each hop.
 */
import * as http from "node:http";
import * as https from "node:https";
import { isIP, type LookupFunction } from "node:net";

export interface PinnedResponse {
  readonly status: number;
  readonly statusText: string;
  readonly location?: string;
  readonly contentType: string;
  readonly bytes: Uint8Array;
  readonly truncated: boolean;
}

export interface PinnedRequest {
  readonly url: string;
  readonly address: string;
  readonly signal: AbortSignal;
  readonly maxBytes: number;
  readonly headers?: Readonly<Record<string, string>>;
}

function pinnedLookup(address: string): LookupFunction {
  const family = isIP(address) === 6 ? 6 : 4;
  return (_host, options, callback) => {
    if (options.all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

export function pinnedRequest(o: PinnedRequest): Promise<PinnedResponse> {
  const u = new URL(o.url);
  const lib = u.protocol === "https:" ? https : http;
  return new Promise<PinnedResponse>((resolve, reject) => {
    const req = lib.request(
      u,
      { method: "GET", headers: { ...o.headers }, lookup: pinnedLookup(o.address), signal: o.signal, agent: false },
      (res) => {
        const parts: Buffer[] = [];
        let size = 0;
        let truncated = false;
        const done = (): void =>
          resolve({
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? "",
            ...(typeof res.headers.location === "string" ? { location: res.headers.location } : {}),
            contentType: res.headers["content-type"] ?? "",
            bytes: new Uint8Array(Buffer.concat(parts)),
            truncated,
          });
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          res.once("end", done);
          return;
        }
        res.on("data", (chunk: Buffer) => {
          if (truncated) return;
          const room = o.maxBytes - size;
          if (chunk.length > room) {
            parts.push(chunk.subarray(0, room));
            size += room;
            truncated = true;
            res.destroy();
            done();
            return;
          }
          parts.push(chunk);
          size += chunk.length;
        });
        res.once("end", () => {
          if (!truncated) done();
        });
        res.once("error", (e) => {
          if (!truncated) reject(e);
        });
      },
    );
    req.once("error", reject);
    req.end();
  });
}
