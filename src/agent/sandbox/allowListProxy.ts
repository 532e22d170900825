import { promises as dns } from "node:dns";
import { chmodSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { createConnection, createServer, isIP, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import * as nodePath from "node:path";
import { compileAllowList, entryText, matchAllowList, type AllowEntry } from "../../core/sandbox/networkAllowList";
import { notListedMessage, parseProxyRequest, proxyRefusal, type ProxyRequest } from "../../core/sandbox/proxyRequest";
import { privateAddressReason } from "../../core/urls";

/**
 * The host side of `toolgate.sandbox.network` as a host list: an HTTP proxy (CONNECT tunnels for HTTPS,
 * absolute-URI requests for plain HTTP) that reaches only the listed hosts. It resolves names itself and
 * connects to the address it checked (no second lookup a name could rebind between); a name matched only by
 * a wildcard must resolve to public addresses, an exactly listed host may be private or loopback. Everything
 * refused gets an HTTP error whose body names the setting. One proxy serves every command of a sandbox
 * session; connections are bounded, and idle ones time out.
 */

export type HostLookup = (host: string) => Promise<readonly { readonly address: string; readonly family: number }[]>;

export interface AllowListProxyOptions {
  /** Entries as `parseSandboxSettings` returned them. */
  readonly hosts: readonly string[];
  /** Name resolution; tests map names to local listeners. Defaults to the system resolver. */
  readonly lookup?: HostLookup;
  readonly maxConnections?: number;
  /** Until the request head arrived, and for DNS plus connect. */
  readonly setupTimeoutMs?: number;
  /** An open tunnel with no traffic either way for this long is closed. */
  readonly idleTimeoutMs?: number;
}

/** Proxies still open: their socket directories are removed when the process exits without disposing them. */
const live = new Set<AllowListProxy>();
let exitHook = false;
function closeAllAtExit(): void {
  for (const p of live) p.close();
}

const systemLookup: HostLookup = (host) => dns.lookup(host, { all: true, verbatim: true });

export class AllowListProxy {
  private readonly list: readonly AllowEntry[];
  private readonly lookup: HostLookup;
  private readonly setupTimeoutMs: number;
  private readonly idleTimeoutMs: number;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private dir: string | undefined;
  private closed = false;
  /** The Unix socket path once `listenUnix` succeeded. */
  socketPath: string | undefined;
  /** The TCP port on 127.0.0.1 once `listenTcp` succeeded. */
  port: number | undefined;

  constructor(o: AllowListProxyOptions) {
    this.list = compileAllowList(o.hosts);
    this.lookup = o.lookup ?? systemLookup;
    this.setupTimeoutMs = o.setupTimeoutMs ?? 30_000;
    this.idleTimeoutMs = o.idleTimeoutMs ?? 10 * 60_000;
    this.server = createServer({ allowHalfOpen: true }, (c) => this.accept(c));
    this.server.maxConnections = o.maxConnections ?? 256;
    // An asynchronous listen failure, or a later one: the proxy is gone, the session starts another.
    this.server.on("error", () => this.close());
    this.server.unref();
    live.add(this);
    if (!exitHook) {
      exitHook = true;
      process.once("exit", closeAllAtExit);
    }
  }

  /** Whether it listens (a closed or failed proxy never listens again). */
  get alive(): boolean {
    return !this.closed && this.server.listening;
  }

  /**
   * Binds a Unix socket in a fresh private directory (mode 0700: no other user connects). Synchronous: Node
   * binds a path at once, so the caller knows before it builds the sandbox. Returns why it failed, if it did.
   */
  listenUnix(): string | undefined {
    try {
      const dir = realpathSync.native(mkdtempSync(nodePath.join(tmpdir(), "toolgate-proxy-")));
      chmodSync(dir, 0o700);
      this.dir = dir;
      const path = nodePath.join(dir, "proxy.sock");
      this.server.listen(path);
      if (!this.server.listening) return "the proxy's socket could not be bound";
      this.socketPath = path;
      return undefined;
    } catch (e) {
      return (e as Error).message;
    }
  }

  /** Listens on 127.0.0.1 (Seatbelt: the sandbox connects to that port, and to nothing else). */
  listenTcp(): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (e: Error): void => reject(e);
      this.server.once("error", onError);
      this.server.listen(0, "127.0.0.1", () => {
        this.server.off("error", onError);
        const a = this.server.address();
        if (a === null || typeof a === "string") return reject(new Error("no TCP address"));
        this.port = a.port;
        resolve(a.port);
      });
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    live.delete(this);
    this.server.close();
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true });
  }

  private track(s: Socket): void {
    this.sockets.add(s);
    s.once("close", () => this.sockets.delete(s));
  }

  private accept(client: Socket): void {
    this.track(client);
    client.on("error", () => client.destroy());
    client.setTimeout(this.setupTimeoutMs, () => client.destroy());
    let buf: Buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
      const req = parseProxyRequest(buf);
      if (req.kind === "incomplete") return;
      client.off("data", onData);
      client.pause();
      if (req.kind === "bad") return refuse(client, req.status, req.reason);
      this.forward(client, req).catch((e: unknown) => refuse(client, 502, `internal error: ${String(e)}`));
    };
    client.on("data", onData);
  }

  private async forward(client: Socket, req: Extract<ProxyRequest, { kind: "connect" | "http" }>): Promise<void> {
    const decision = matchAllowList(this.list, req.host, req.port);
    if (!decision.allowed) return refuse(client, 403, notListedMessage(req.host, req.port, this.list.map(entryText)));
    let address = req.host;
    if (isIP(req.host) === 0) {
      let answers: readonly { address: string }[];
      try {
        answers = await this.lookup(req.host);
      } catch (e) {
        return refuse(client, 502, `cannot resolve ${req.host}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
      }
      const first = answers[0];
      if (first === undefined) return refuse(client, 502, `cannot resolve ${req.host}`);
      if (!decision.explicit) {
        const priv = answers.map((a) => privateAddressReason(a.address)).find((r) => r !== undefined);
        if (priv !== undefined)
          return refuse(
            client,
            403,
            `${req.host} matches \`${decision.entry}\` in \`toolgate.sandbox.network\` but resolves to a private ` +
              `address (${priv}); list the exact host name to allow that.`,
          );
      }
      address = first.address;
    }
    if (client.destroyed) return;
    const upstream = createConnection({ host: address, port: req.port, allowHalfOpen: true });
    this.track(upstream);
    upstream.setTimeout(this.setupTimeoutMs, () => {
      if (upstream.connecting) refuse(client, 504, `connecting to ${req.host}:${req.port} timed out`);
      upstream.destroy();
    });
    // Until it connects (this listener is replaced then), an error means the host could not be reached.
    upstream.once("error", (e: NodeJS.ErrnoException) => {
      refuse(client, 502, `cannot connect to ${req.host}:${req.port} (${e.code ?? e.message})`);
      upstream.destroy();
    });
    upstream.once("connect", () => {
      if (client.destroyed) {
        upstream.destroy();
        return;
      }
      upstream.removeAllListeners("error");
      upstream.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
      client.removeAllListeners("error");
      client.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
      upstream.setTimeout(this.idleTimeoutMs, () => upstream.destroy());
      client.setTimeout(this.idleTimeoutMs, () => client.destroy());
      client.once("close", () => upstream.destroy());
      upstream.once("close", () => client.end());
      if (req.kind === "connect") client.write("HTTP/1.1 200 Connection established\r\n\r\n");
      else upstream.write(req.head);
      if (req.rest.length > 0) upstream.write(req.rest);
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  }
}

/**
 * Answers and half-closes. What the client sent meanwhile is read and dropped: closing with unread bytes would
 * reset the connection and lose the answer. The set-up timeout ends a client that never closes its side.
 */
function refuse(client: Socket, status: 400 | 403 | 405 | 431 | 502 | 503 | 504, reason: string): void {
  if (client.destroyed || !client.writable) return;
  client.removeAllListeners("data");
  client.resume();
  client.end(proxyRefusal(status, reason));
}
