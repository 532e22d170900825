/**
 * The POSIX `sh` wrapper that an agent's hook configuration runs instead of `toolgate hook <agent>`.
 *
 * Why it exists: every agent lets a tool call through when its hook fails in some way (a crash, a timeout, a
 * missing program, output it cannot parse), and that happens before any Toolgate code could answer. The
 * wrapper runs an absolute Node under coreutils `timeout`, shorter than the agent's own hook timeout, and
 * turns each failure into the agent's own refusal.
 *
 * Invariants the rendered script keeps:
 * - stdin reaches Node untouched (inherited, never read by the shell).
 * - Node's answer is printed only after Node exited 0 and its whole answer, written to a private temp file,
 *   is non-empty and shaped like one JSON object (`{` … `}`); then it is printed byte for byte. A partial
 *   answer cannot be printed: a process killed mid-write exits non-zero.
 * - Every other outcome prints the agent's refusal and nothing of Node's output: exit 2 with the reason on
 *   stderr for the agents that block on exit 2, the refusal JSON on stdout with exit 0 for the agents that
 *   ignore exit codes (Cline) or read only JSON (Cursor).
 * - The refusal texts are fixed strings rendered here (no shell expansion at run time), so a path with
 *   quotes cannot break the JSON an agent reads.
 * - The line `# toolgate-wrapper: {…}` records what the script was rendered from, so it can be re-rendered
 *   (extension update) and checked (`toolgate hook doctor`) without guessing.
 */

export type RefusalStyle = "exit2" | "cline" | "cursor";

export interface WrapperSpec {
  /** `toolgate hook <agent>`. */
  readonly agent: string;
  readonly style: RefusalStyle;
  /** Absolute Node interpreter. */
  readonly node: string;
  /** Absolute `dist/cli.js`. */
  readonly cli: string;
  /** Arguments after `hook <agent>` (`--headless`). */
  readonly hookArgs: readonly string[];
  /** Seconds before `timeout` sends TERM; KILL follows `KILL_GRACE_SECONDS` later. */
  readonly limitSeconds: number;
  /** Absolute paths of the helpers the script runs (resolved at install, so PATH cannot change them). */
  readonly tools: { readonly timeout: string; readonly mktemp: string; readonly cat: string; readonly rm: string };
}

export const WRAPPER_FORMAT = 1;
export const KILL_GRACE_SECONDS = 2;
/** The longest a wrapper can run: the agent's own hook timeout must be longer than this. */
export function wrapperWorstCaseSeconds(spec: Pick<WrapperSpec, "limitSeconds">): number {
  return spec.limitSeconds + KILL_GRACE_SECONDS;
}

const META_PREFIX = "# toolgate-wrapper: ";

/** Single-quotes a word for sh: nothing inside is expanded. */
export function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The agent's refusal, as the wrapper prints it (stderr text for `exit2`, one stdout JSON line otherwise). */
export function refusalText(style: RefusalStyle, reason: string): string {
  const text = `Toolgate: ${reason}`;
  switch (style) {
    case "exit2":
      return text;
    case "cline":
      return JSON.stringify({ cancel: true, errorMessage: text });
    case "cursor":
      return JSON.stringify({ permission: "deny", user_message: text, agent_message: text });
  }
}

/** Why a wrapper refused, one fixed text per failure (no run-time values). */
export const REFUSALS = {
  noNode:
    "the Node interpreter this hook was installed with is missing, so the call is refused (run `toolgate hook install` again)",
  noCli:
    "Toolgate's dist/cli.js is missing, so the call is refused (reinstall or update the Toolgate extension, or run `toolgate hook install` again)",
  noTimeout: "the `timeout` program this hook was installed with is missing, so the call is refused",
  tmp: "the hook could not create its temporary file, so the call is refused",
  timedOut: "the hook did not answer in time, so the call is refused",
  notRun: "the hook process could not be started, so the call is refused",
  failed: "the hook process failed, so the call is refused",
  noAnswer: "the hook gave an empty or non-JSON answer, so the call is refused",
  read: "the hook's answer could not be read back, so the call is refused",
} as const;

export type RefusalKey = keyof typeof REFUSALS;

function refuseFunction(style: RefusalStyle): string {
  return style === "exit2"
    ? `refuse() {\n  printf '%s\\n' "$1" >&2\n  exit 2\n}`
    : `refuse() {\n  printf '%s\\n' "$1"\n  exit 0\n}`;
}

export function renderWrapper(spec: WrapperSpec): string {
  const meta = {
    v: WRAPPER_FORMAT,
    agent: spec.agent,
    style: spec.style,
    node: spec.node,
    cli: spec.cli,
    args: spec.hookArgs,
    limit: spec.limitSeconds,
    tools: spec.tools,
  };
  const messages = (Object.keys(REFUSALS) as RefusalKey[])
    .map((k) => `M_${k}=${shQuote(refusalText(spec.style, REFUSALS[k]))}`)
    .join("\n");
  const hookWords = ["hook", spec.agent, ...spec.hookArgs].map(shQuote).join(" ");
  const limit = Math.max(1, Math.floor(spec.limitSeconds));
  return `#!/bin/sh
# Toolgate's hook wrapper for \`toolgate hook ${spec.agent}\`. Written by \`toolgate hook install\` and refreshed
# when the Toolgate extension starts: edits are overwritten. It turns every failure of the hook process into
# the agent's refusal, because the agent itself would let the call through.
${META_PREFIX}${JSON.stringify(meta)}
NODE=${shQuote(spec.node)}
CLI=${shQuote(spec.cli)}
TIMEOUT=${shQuote(spec.tools.timeout)}
MKTEMP=${shQuote(spec.tools.mktemp)}
CAT=${shQuote(spec.tools.cat)}
RM=${shQuote(spec.tools.rm)}
${messages}

${refuseFunction(spec.style)}

[ -x "$NODE" ] || refuse "$M_noNode"
[ -f "$CLI" ] && [ -r "$CLI" ] || refuse "$M_noCli"
[ -x "$TIMEOUT" ] || refuse "$M_noTimeout"
umask 077
TMP=$("$MKTEMP" -d) || refuse "$M_tmp"
trap '"$RM" -rf "$TMP"' EXIT
trap 'exit 143' HUP INT TERM
OUT="$TMP/answer"
ERR="$TMP/stderr"

# stdin is inherited: the agent's input reaches Node byte for byte.
"$TIMEOUT" -k ${KILL_GRACE_SECONDS} ${limit} "$NODE" "$CLI" ${hookWords} >"$OUT" 2>"$ERR"
STATUS=$?
case $STATUS in
  0) ;;
  124|137) refuse "$M_timedOut" ;;
  125|126|127) refuse "$M_notRun" ;;
  *) refuse "$M_failed" ;;
esac
ANSWER=$("$CAT" "$OUT") || refuse "$M_read"
case $ANSWER in
  '{'*'}') ;;
  *) refuse "$M_noAnswer" ;;
esac
"$CAT" "$OUT" || refuse "$M_read"
[ -s "$ERR" ] && "$CAT" "$ERR" >&2
exit 0
`;
}

function isStringRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** What a wrapper was rendered from, read back from its `# toolgate-wrapper:` line; undefined if not ours. */
export function parseWrapperSpec(text: string): WrapperSpec | undefined {
  const line = text.split("\n").find((l) => l.startsWith(META_PREFIX));
  if (line === undefined) return undefined;
  let meta: unknown;
  try {
    meta = JSON.parse(line.slice(META_PREFIX.length));
  } catch {
    return undefined;
  }
  if (!isStringRecord(meta) || meta.v !== WRAPPER_FORMAT) return undefined;
  const { agent, style, node, cli, args, limit, tools } = meta;
  if (typeof agent !== "string" || typeof node !== "string" || typeof cli !== "string") return undefined;
  if (style !== "exit2" && style !== "cline" && style !== "cursor") return undefined;
  if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) return undefined;
  if (typeof limit !== "number" || !isStringRecord(tools)) return undefined;
  const t = tools;
  if (![t.timeout, t.mktemp, t.cat, t.rm].every((p) => typeof p === "string")) return undefined;
  return {
    agent,
    style,
    node,
    cli,
    hookArgs: args as string[],
    limitSeconds: limit,
    tools: { timeout: t.timeout as string, mktemp: t.mktemp as string, cat: t.cat as string, rm: t.rm as string },
  };
}
