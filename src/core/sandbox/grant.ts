/**
 * What a decided command may do inside the OS sandbox: the gate's verdict turned into the sandbox's only
 * per-call input (DESIGN, "The sandbox enforces the verdict"). The sandbox is built from a grant and the task's
 * fixed inputs and nothing else, so a miss in the analysis can at most do what the verdict already allowed.
 *
 * - `read-only`: every bind read-only, the workspace roots included (the task's private `/tmp` stays writable).
 *   Lines the analysis judges safe and read-only, and every command in plan mode, clicked or not.
 * - `workspace-write`: the workspace roots writable except protected paths. Every other line that runs.
 *
 * `hosts`: the hosts the line itself names, intersected with `toolgate.sandbox.network`; empty otherwise, so
 * a configured host list never gives a line the network it did not name.
 */
export type GrantKind = "read-only" | "workspace-write";

export interface SandboxGrant {
  readonly kind: GrantKind;
  /** Allow-list entries (as in `toolgate.sandbox.network`) this call may reach; sorted, no duplicates. */
  readonly hosts: readonly string[];
}

export const READ_ONLY_GRANT: SandboxGrant = { kind: "read-only", hosts: [] };
export const WORKSPACE_WRITE_GRANT: SandboxGrant = { kind: "workspace-write", hosts: [] };

/** A grant from its parts; hosts are normalised (lower-case, sorted, unique) so equal grants compare equal. */
export function grantOf(kind: GrantKind, hosts: readonly string[] = []): SandboxGrant {
  if (hosts.length === 0) return kind === "read-only" ? READ_ONLY_GRANT : WORKSPACE_WRITE_GRANT;
  return { kind, hosts: [...new Set(hosts.map((h) => h.toLowerCase()))].sort() };
}

/** Parses the CLI's `--grant` value; undefined for anything else (the caller exits 2). */
export function parseGrantKind(text: string): GrantKind | undefined {
  return text === "read-only" || text === "workspace-write" ? text : undefined;
}

/** The grant as the card and the audit log say it. */
export function describeGrant(g: SandboxGrant): string {
  const fs = g.kind === "read-only" ? "read-only" : "may write the workspace";
  return g.hosts.length === 0 ? `${fs}, no network` : `${fs}, network to ${g.hosts.join(", ")}`;
}
