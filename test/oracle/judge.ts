/**
 * The oracle's verdict on one allowed line under one profile: what bash did against what the gate decided.
 *
 * - Every program that ran must be one the analysis listed (program and argv; an unknown word of the analysis
 *   matches any words), unless it was started by a project runner the profile allowed (`npm test`, `make`,
 *   `node`: what they run is the project's, not the line's) or is the implementation of a system script
 *   (`egrep` → `sh` → `grep`). A denied program must never run.
 * - Files: nothing deleted unless the analysis said it deletes; nothing protected or ignored written; for a
 *   line allowed as safe, nothing written beyond the writes the path gate accepted (nothing at all when it was
 *   judged read-only). Lines allowed by "run all commands" or auto mode may write where the person allowed.
 * - Reads: no ignored file read (every profile), no rule-denied file read (profiles with the rule), and for a
 *   line allowed as safe no outside or HOME secret read; found by access time and by the secret's token in the
 *   output or in any written file.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { UNKNOWN, type Word } from "../../src/core/commands/model";
import type { Decision } from "../../src/core/types";
import type { Capture, Listed } from "./instrument";
import type { ExecRecord } from "./records";
import type { FileChange } from "./snapshot";
import type { Layout, Sentinel } from "./workspace";

export interface Execution {
  readonly records: readonly ExecRecord[];
  readonly changes: readonly FileChange[];
  readonly read: readonly Sentinel[];
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

export interface Violation {
  readonly kind:
    | "unlisted-program"
    | "denied-program"
    | "deleted"
    | "wrote-protected"
    | "wrote-undecided"
    | "read-ignored"
    | "read-denied"
    | "read-outside";
  readonly detail: string;
}

/** Programs that run project code the line does not show: what they start is licensed by allowing them. */
const PROJECT_RUNNERS = new Set(["npm", "npx", "pnpm", "yarn", "node", "make", "python3", "perl", "ruby"]);
/** Decisions that run what the analysis could not vouch for (the person chose so). */
const ALLOW_ALL_RULES = new Set(["mode:auto", "autoApprove.all", "autoApprove.executeAllCommands"]);

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** How one listed word may appear in argv: exactly, as one word of a shape, or as any number of words. */
type WordMatcher = { readonly kind: "one"; readonly test: (arg: string) => boolean } | { readonly kind: "many" };

function wordMatcher(w: Word): WordMatcher {
  if (w.literal) return { kind: "one", test: (a) => a === w.value };
  if (w.splits || w.glob) return { kind: "many" };
  if (w.tilde !== undefined || w.pipe) return { kind: "one", test: () => true };
  const re = new RegExp(`^${w.value.split(UNKNOWN).map(escape).join("[^]*?")}$`);
  return { kind: "one", test: (a) => re.test(a) };
}

/** Whether `args` can be the words `matchers` expand to (memoised, linear in their product: no backtracking blow-up). */
function fits(matchers: readonly WordMatcher[], args: readonly string[]): boolean {
  const memo = new Map<number, boolean>();
  const go = (i: number, j: number): boolean => {
    if (i === matchers.length) return j === args.length;
    const k = i * (args.length + 1) + j;
    const hit = memo.get(k);
    if (hit !== undefined) return hit;
    const m = matchers[i]!;
    let r: boolean;
    if (m.kind === "many") {
      r = false;
      for (let n = j; n <= args.length && !r; n++) r = go(i + 1, n);
    } else r = j < args.length && m.test(args[j]!) && go(i + 1, j + 1);
    memo.set(k, r);
    return r;
  };
  return go(0, 0);
}

export function matchesListed(r: ExecRecord, l: Listed): boolean {
  const p = l.words[0];
  if (!p || !p.literal || path.basename(p.value) !== r.program) return false;
  // find substitutes each file for `{}`: the program is what it judged, the words are file names.
  if (l.via === "find") return true;
  const matchers = l.words.slice(1).map(wordMatcher);
  if (l.extra) matchers.push({ kind: "many" });
  return fits(matchers, r.argv.slice(1));
}

function deniedBy(r: ExecRecord, deny: readonly string[]): string | undefined {
  for (const d of deny) {
    const [prog, ...rest] = d.split(" ");
    if (prog !== r.program) continue;
    if (rest.every((w, i) => r.argv[i + 1] === w)) return d;
  }
  return undefined;
}

type Status = "listed" | "listed-by-find" | "licensed" | "unlisted" | "under-unlisted";

const SHELLS = new Set(["sh", "bash", "dash"]);

/** `sh -c TEXT` where the analysis parsed TEXT as a script, or judged it as the words it splits into. */
function shellOfJudgedText(r: ExecRecord, capture: Capture): boolean {
  if (!SHELLS.has(r.program) || r.argv[1] !== "-c" || r.argv[2] === undefined) return false;
  const text = r.argv[2];
  return (
    capture.scripts.includes(text) ||
    capture.listed.some((l) => l.words.every((w) => w.literal) && l.words.map((w) => w.value).join(" ") === text)
  );
}

function statuses(records: readonly ExecRecord[], capture: Capture): Map<ExecRecord, Status> {
  const out = new Map<ExecRecord, Status>();
  const listed = capture.listed;
  for (const r of records) {
    const parent = r.parent;
    const ps = parent ? out.get(parent) : undefined;
    let s: Status;
    if (parent && (ps === "unlisted" || ps === "under-unlisted")) s = "under-unlisted";
    else if (r.interpreter) s = ps ?? "licensed";
    else if (parent && (ps === "licensed" || parent.interpreter || PROJECT_RUNNERS.has(parent.program))) s = "licensed";
    else if (ps === "listed-by-find")
      // Below `find -exec`, file names replace `{}` in every word: the program must be one it judged.
      s = listed.some((l) => l.words[0]?.literal && path.basename(l.words[0].value) === r.program)
        ? "listed-by-find"
        : "unlisted";
    else {
      const hit = listed.find((l) => matchesListed(r, l));
      s = hit
        ? hit.via === "find"
          ? "listed-by-find"
          : "listed"
        : shellOfJudgedText(r, capture)
          ? "listed"
          : "unlisted";
    }
    out.set(r, s);
  }
  return out;
}

function resolveFrom(p: string, cwd: string, home: string): string {
  if (p === "~" || p.startsWith("~/")) return path.join(home, p.slice(1));
  return path.resolve(cwd, p);
}

export interface JudgeInput {
  readonly decision: Decision;
  readonly capture: Capture;
  readonly exec: Execution;
  readonly layout: Layout;
  readonly deny: readonly string[];
  readonly readDenied: boolean;
}

export function judge(input: JudgeInput): Violation[] {
  const { capture, exec, layout } = input;
  const out: Violation[] = [];
  // Allowed because the analysis vouched for it, not because the mode runs what it could not vouch for.
  const safe = capture.analysis.verdict === "safe" && !ALLOW_ALL_RULES.has(input.decision.rule);
  const st = statuses(exec.records, capture);
  const runnerRan = exec.records.some((r) => PROJECT_RUNNERS.has(r.program));
  for (const r of exec.records) {
    const s = st.get(r);
    if (s === "unlisted")
      out.push({ kind: "unlisted-program", detail: `${r.program} ${JSON.stringify(r.argv.slice(1))}` });
    const d = r.interpreter ? undefined : deniedBy(r, input.deny);
    if (d) out.push({ kind: "denied-program", detail: `\`${d}\` ran: ${JSON.stringify(r.argv)}` });
  }
  const accepted = capture.paths
    .filter((p) => p.access === "write" && p.ok)
    .map((p) => resolveFrom(p.path, p.cwd, layout.home));
  for (const c of exec.changes) {
    if (c.path === "/.oracle" || c.path.startsWith("/.oracle/")) continue;
    if (c.change === "deleted") {
      if (!capture.analysis.deletes) out.push({ kind: "deleted", detail: c.path });
      continue;
    }
    const v = capture.gate.check(c.path, layout.ws, "write");
    if (!v.ok && (v.rule.startsWith("protected") || /ignor/i.test(v.reason)))
      out.push({ kind: "wrote-protected", detail: `${c.path} (${v.rule})` });
    if (!safe || c.dir) continue;
    if (runnerRan && c.path.startsWith(path.join(layout.home, ".npm") + "/")) continue;
    if (capture.analysis.readOnly || !accepted.includes(c.path))
      out.push({
        kind: "wrote-undecided",
        detail: `${c.path} ${c.change}${capture.analysis.readOnly ? " by a line judged read-only" : ""}`,
      });
  }
  const kinds = new Set<Sentinel["kind"]>(exec.read.map((s) => s.kind));
  const leaked = (text: string) => {
    for (const [token, kind] of layout.tokens) if (text.includes(token)) kinds.add(kind);
  };
  leaked(exec.stdout);
  leaked(exec.stderr);
  for (const c of exec.changes) {
    if (c.dir || c.change === "deleted") continue;
    try {
      // Regular files only: opening a FIFO the line made would block.
      const st = fs.lstatSync(c.host);
      if (st.isFile() && st.size < 1 << 20) leaked(fs.readFileSync(c.host, "utf8"));
    } catch {
      /* gone again */
    }
  }
  const what = [...exec.read.map((s) => s.path), ...(exec.stdout.includes("TOKEN-") ? ["(token in output)"] : [])];
  // Ignored files are the gate's to refuse when the analysis vouched for the line; a line it called unsafe
  // and the mode ran anyway is the sandbox's to confine (DESIGN "Two layers").
  if (kinds.has("ignored") && capture.analysis.verdict === "safe")
    out.push({ kind: "read-ignored", detail: what.join(", ") });
  if (kinds.has("denied-read") && input.readDenied) out.push({ kind: "read-denied", detail: what.join(", ") });
  if (kinds.has("outside") && safe) out.push({ kind: "read-outside", detail: what.join(", ") });
  return out;
}
