import { AllowListProxy, type AllowListProxyOptions } from "./allowListProxy";

/** How one command reaches the network: not at all, or through the proxy serving exactly its grant's hosts. */
export type NetworkPlan =
  | { readonly kind: "none"; readonly notice?: string }
  | { readonly kind: "unix"; readonly socket: string; readonly hosts: readonly string[] }
  | { readonly kind: "tcp"; readonly port: number; readonly hosts: readonly string[] };

/** The notice when the allow-list cannot be served: the command runs with no network (never with open network). */
export const proxyDownNotice = (reason: string): string =>
  `this command's grant names hosts, but the allow-list proxy could not start (${reason}): it has no network at all.`;

/** Distinct host sets kept listening at once; the least recently used closes beyond this. */
const MAX_PROXIES = 8;

/**
 * The allow-list proxies of one sandbox session, one per distinct host set a grant carried, started on first
 * use (never for a grant without hosts) and restarted if one died. Fails closed: a proxy that cannot start
 * means no network and a notice, never the open network, and never a proxy with more hosts than the grant.
 */
export class GrantProxies {
  private readonly proxies = new Map<string, { proxy: AllowListProxy; starting?: Promise<void> }>();

  constructor(
    private readonly tcp: boolean,
    private readonly options: Omit<AllowListProxyOptions, "hosts"> = {},
  ) {}

  plan(hosts: readonly string[]): NetworkPlan {
    if (hosts.length === 0) return { kind: "none" };
    const key = hosts.join("\n");
    let entry = this.proxies.get(key);
    if (entry && !entry.proxy.alive && entry.starting === undefined) {
      entry.proxy.close();
      this.proxies.delete(key);
      entry = undefined;
    }
    if (entry) {
      // Most recently used last.
      this.proxies.delete(key);
      this.proxies.set(key, entry);
    } else {
      const proxy = new AllowListProxy({ ...this.options, hosts });
      if (this.tcp) {
        const e: { proxy: AllowListProxy; starting?: Promise<void> } = { proxy };
        e.starting = proxy.listenTcp().then(
          () => void (e.starting = undefined),
          () => void (e.starting = undefined),
        );
        entry = e;
      } else {
        const error = proxy.listenUnix();
        if (error !== undefined) {
          proxy.close();
          return { kind: "none", notice: proxyDownNotice(error) };
        }
        entry = { proxy };
      }
      this.proxies.set(key, entry);
      while (this.proxies.size > MAX_PROXIES) {
        const [oldest, old] = this.proxies.entries().next().value!;
        old.proxy.close();
        this.proxies.delete(oldest);
      }
    }
    const p = entry.proxy;
    if (p.socketPath !== undefined && p.alive) return { kind: "unix", socket: p.socketPath, hosts };
    if (p.port !== undefined && p.alive) return { kind: "tcp", port: p.port, hosts };
    return { kind: "none", notice: proxyDownNotice(entry.starting ? "it is still starting" : "it stopped") };
  }

  /** Resolves once the proxy for these hosts listens or failed to (TCP proxies start asynchronously). */
  async ready(hosts: readonly string[]): Promise<void> {
    if (hosts.length === 0) return;
    this.plan(hosts);
    await this.proxies.get(hosts.join("\n"))?.starting;
  }

  dispose(): void {
    for (const { proxy } of this.proxies.values()) proxy.close();
    this.proxies.clear();
  }
}
