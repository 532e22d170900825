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
 *
 * `readPaths`: outside reads the person approved on this call's card, bound read-only into this one call's
 * sandbox (the next call does not see them). Set only from a click (`withApprovedReads`), never by the gate
 * or the model; credential stores and ignored files stay hidden whatever it lists (see policyForGrant).
 */
export type GrantKind = "read-only" | "workspace-write";

export interface SandboxGrant {
  readonly kind: GrantKind;
  /** Allow-list entries (as in `toolgate.sandbox.network`) this call may reach; sorted, no duplicates. */
  readonly hosts: readonly string[];
  /** Real, absolute paths outside the workspace the person approved reading; sorted, no duplicates. */
  readonly readPaths?: readonly string[];
}

export const READ_ONLY_GRANT: SandboxGrant = { kind: "read-only", hosts: [] };
export const WORKSPACE_WRITE_GRANT: SandboxGrant = { kind: "workspace-write", hosts: [] };

/** A grant from its parts; hosts are normalised (lower-case, sorted, unique) so equal grants compare equal. */
export function grantOf(kind: GrantKind, hosts: readonly string[] = []): SandboxGrant {
  if (hosts.length === 0) return kind === "read-only" ? READ_ONLY_GRANT : WORKSPACE_WRITE_GRANT;
  return { kind, hosts: [...new Set(hosts.map((h) => h.toLowerCase()))].sort() };
}

/**
 * The grant a person's click on the card runs with: the decision's grant plus the outside reads that card named
 * (`CommandTarget.outsideReads`). Only the approval path calls this; an auto-approved call keeps its grant.
 */
export function withApprovedReads(g: SandboxGrant, paths: readonly string[] | undefined): SandboxGrant {
  const reads = [...new Set([...(g.readPaths ?? []), ...(paths ?? [])])].sort();
  return reads.length === 0 ? g : { ...g, readPaths: reads };
}

/** Parses the CLI's `--grant` value; undefined for anything else (the caller exits 2). */
export function parseGrantKind(text: string): GrantKind | undefined {
  return text === "read-only" || text === "workspace-write" ? text : undefined;
}

/** The grant as the card and the audit log say it. */
export function describeGrant(g: SandboxGrant): string {
  const fs = g.kind === "read-only" ? "read-only" : "may write the workspace";
  const net = g.hosts.length === 0 ? `${fs}, no network` : `${fs}, network to ${g.hosts.join(", ")}`;
  const reads = g.readPaths ?? [];
  return reads.length === 0 ? net : `${net}, may read ${reads.join(", ")} (approved for this call)`;
}
