import { Minimatch } from "minimatch";
import { homedir } from "node:os";
import { GLOB_PREFILTER_FLAGS, globPrefilterSource } from "./globPrefilter";
import { mcpNameKey } from "./mcp";
import type { ResolvedPath } from "./paths";
import { isToolName, type ToolName } from "./types";

/**
 * `Tool(arg-pattern)` permission rules. The pattern applies to the tool's primary argument: a glob on the
 * canonical workspace-relative path for file tools, an argv prefix for commands, a URL glob or
 * `domain:host` for web_fetch. `mcp__server__tool` / `mcp__server__*` / `mcp__server` name MCP tools.
 */

export type RuleEffect = "allow" | "ask" | "deny";

const ALIASES: Readonly<Record<string, readonly ToolName[]>> = {
  Read: ["read_file", "list_files", "search_files"],
  Edit: ["write_to_file", "replace_in_file"],
  Write: ["write_to_file", "replace_in_file"],
  Bash: ["execute_command"],
  WebFetch: ["web_fetch"],
};

export const FILE_TOOLS: readonly ToolName[] = [
  "read_file",
  "write_to_file",
  "replace_in_file",
  "list_files",
  "search_files",
];

/** The argument each tool's pattern applies to. */
export const PRIMARY_ARG: Readonly<Partial<Record<ToolName, string>>> = {
  read_file: "path",
  write_to_file: "path",
  replace_in_file: "path",
  list_files: "path",
  search_files: "path",
  execute_command: "command",
  web_fetch: "url",
  access_mcp_resource: "uri",
  ask_followup_question: "question",
  attempt_completion: "command",
  new_task: "context",
};

export interface PermissionRule {
  readonly source: string;
  /** Which settings layer it came from: "user", "workspace", "managed", "mode:plan". */
  readonly layer: string;
  readonly effect: RuleEffect;
  readonly tools: readonly ToolName[];
  /** Undefined = every call of the tool. */
  readonly pattern?: string;
  readonly mcp?: { readonly server: string; readonly tool: string | "*" };
  readonly glob?: Minimatch;
}

export type RuleParse =
  { readonly ok: true; readonly rule: PermissionRule } | { readonly ok: false; readonly error: string };

const RULE_SHAPE = /^([A-Za-z_][A-Za-z0-9_-]*)(?:\((.*)\))?$/s;

export function parseRule(source: string, effect: RuleEffect, layer: string): RuleParse {
  const text = source.trim();
  if (text.startsWith("mcp__")) return parseMcpRule(source, text, effect, layer);
  const m = RULE_SHAPE.exec(text);
  if (!m) return { ok: false, error: `\`${source}\` is not a rule: write Tool or Tool(pattern)` };
  const name = m[1]!;
  const pattern = m[2];
  if (pattern !== undefined && pattern.trim() === "")
    return { ok: false, error: `\`${source}\`: the pattern in () is empty` };
  const tools = ALIASES[name] ?? (isToolName(name) ? [name] : undefined);
  if (!tools) return { ok: false, error: `\`${source}\`: unknown tool \`${name}\`` };
  if (pattern === undefined) return { ok: true, rule: { source, layer, effect, tools } };
  const trimmed = pattern.trim();
  // `~/x` means the home directory, as it does for tool paths; it becomes an absolute pattern.
  const p = trimmed === "~" || trimmed.startsWith("~/") ? homedir() + trimmed.slice(1) : trimmed;
  const isFile = tools.every((t) => FILE_TOOLS.includes(t));
  const glob = isFile ? new Minimatch(p.replace(/^\.\//, ""), { dot: true, nocase: true }) : undefined;
  return { ok: true, rule: { source, layer, effect, tools, pattern: p, ...(glob ? { glob } : {}) } };
}

/** `mcp__server`, `mcp__server__tool`, `mcp__server__*`. Server names may hold `-` and `.`; the first `__` separates the tool. */
function parseMcpRule(source: string, text: string, effect: RuleEffect, layer: string): RuleParse {
  if (/[()\s]/.test(text))
    return { ok: false, error: `\`${source}\`: MCP rules take no pattern (write mcp__server__tool)` };
  const rest = text.slice(5);
  const sep = rest.indexOf("__");
  const server = sep < 0 ? rest : rest.slice(0, sep);
  const tool = sep < 0 ? "*" : rest.slice(sep + 2);
  if (server === "" || tool === "" || (tool.includes("*") && tool !== "*")) {
    return { ok: false, error: `\`${source}\`: write mcp__server, mcp__server__tool or mcp__server__*` };
  }
  return {
    ok: true,
    rule: { source, layer, effect, tools: ["use_mcp_tool", "access_mcp_resource"], mcp: { server, tool } },
  };
}

export interface RuleSet {
  readonly rules: readonly PermissionRule[];
  readonly errors: readonly string[];
}

export function parseRules(
  lists: readonly { readonly effect: RuleEffect; readonly layer: string; readonly sources: readonly string[] }[],
): RuleSet {
  const rules: PermissionRule[] = [];
  const errors: string[] = [];
  for (const { effect, layer, sources } of lists) {
    for (const s of sources) {
      const r = parseRule(s, effect, layer);
      if (r.ok) rules.push(r.rule);
      else errors.push(`permissions.${effect} (${layer}): ${r.error}`);
    }
  }
  return { rules, errors };
}

/** What a call offers to rule matching, computed once per decision. */
export interface CallSubject {
  readonly tool: ToolName;
  readonly path?: ResolvedPath;
  readonly arg?: string;
  readonly mcp?: { readonly server: string; readonly tool?: string };
}

function pathForms(p: ResolvedPath): { readonly relative: readonly string[]; readonly absolute: readonly string[] } {
  const relative = [p.realRoot?.relative, p.lexicalRoot?.relative].filter((r): r is string => r !== undefined);
  return { relative, absolute: [p.real, p.lexical] };
}

/**
 * Whether `rule` covers the call. `strict` (for allow rules) requires every spelling of a path — lexical and
 * real — to match, so a symlink cannot borrow an allow; deny and ask rules match if any spelling matches.
 */
export function ruleMatches(rule: PermissionRule, s: CallSubject, strict: boolean): boolean {
  if (!rule.tools.includes(s.tool)) return false;
  if (rule.mcp) {
    if (!s.mcp) return false;
    // An allow names one exact tool; a deny or ask holds for every spelling of it (see `mcpNameKey`).
    const same = strict ? (a: string, b: string) => a === b : (a: string, b: string) => mcpNameKey(a) === mcpNameKey(b);
    if (!same(s.mcp.server, rule.mcp.server)) return false;
    if (rule.mcp.tool === "*") return true;
    return s.tool === "use_mcp_tool" && s.mcp.tool !== undefined && same(s.mcp.tool, rule.mcp.tool);
  }
  if (rule.pattern === undefined) return true;
  if (rule.glob) {
    if (!s.path) return false;
    const { relative, absolute } = pathForms(s.path);
    const absPattern = rule.pattern.startsWith("/");
    const forms = absPattern ? absolute : relative;
    if (forms.length === 0) return false;
    const hits = forms.map((f) => rule.glob!.match(f) || rule.glob!.match(f + "/"));
    // Relative patterns must see both spellings inside the workspace for a strict match.
    if (strict) return !absPattern && relative.length < 2 ? false : hits.every(Boolean);
    return hits.some(Boolean);
  }
  if (s.tool === "web_fetch" && s.arg !== undefined) return urlMatches(rule.pattern, s.arg);
  if (s.arg === undefined) return false;
  return new Minimatch(rule.pattern, { dot: true, nocomment: true, nonegate: true }).match(s.arg);
}

function urlMatches(pattern: string, url: string): boolean {
  if (pattern.startsWith("domain:")) {
    const want = pattern.slice(7).toLowerCase();
    let host: string;
    try {
      host = new URL(url).hostname.toLowerCase();
    } catch {
      return false;
    }
    return host === want || host.endsWith("." + want);
  }
  return new Minimatch(pattern, { nocomment: true, nonegate: true }).match(url);
}

interface ToolBucket {
  readonly rules: readonly PermissionRule[];
  /** One alternation of every relative glob of the bucket: a miss here skips all of them at once. */
  readonly relativeGlobs?: RegExp;
  readonly absoluteGlobs?: RegExp;
  /** Pre-filter verdicts by the spellings tested (a pure function of them: the rules never change). */
  readonly memo: Map<string, boolean>;
}

const MEMO_LIMIT = 20_000;

function combine(rules: readonly PermissionRule[]): RegExp | undefined {
  const sources: string[] = [];
  for (const r of rules) sources.push(globPrefilterSource(r.pattern!));
  return sources.length > 0 ? new RegExp(sources.map((s) => `(?:${s})`).join("|"), GLOB_PREFILTER_FLAGS) : undefined;
}

const isAbsolutePattern = (r: PermissionRule) => r.pattern!.startsWith("/");

/** A path's distinct spellings, each with one `/` appended (see `globPrefilterSource`). */
interface SlashedForms {
  readonly relative: readonly string[];
  readonly absolute: readonly string[];
  /** Memo keys: the relative spellings alone, and all of them. */
  readonly relativeKey: string;
  readonly allKey: string;
}

function slashed(a: string | undefined, b: string | undefined): string[] {
  if (a === undefined) return b === undefined ? [] : [b + "/"];
  return b === undefined || b === a ? [a + "/"] : [a + "/", b + "/"];
}

/**
 * Rules indexed by effect and tool, with each bucket's globs folded into one regular expression, so a call
 * that matches no rule costs a few regex tests instead of one glob match per rule. Glob rules the pre-filter
 * rules out are skipped; every other rule is tested with `ruleMatches` in rule order, so results are exactly
 * those of scanning the list.
 */
export class RuleIndex {
  private readonly buckets = new Map<RuleEffect, Map<ToolName, ToolBucket>>();
  /** The spellings of the path asked about last: one decision asks about the same path object several times. */
  private lastPath: ResolvedPath | undefined;
  private lastForms: SlashedForms = { relative: [], absolute: [], relativeKey: "", allKey: "" };

  constructor(readonly rules: readonly PermissionRule[]) {
    const groups = new Map<RuleEffect, Map<ToolName, PermissionRule[]>>();
    for (const r of rules) {
      const byTool = groups.get(r.effect) ?? new Map<ToolName, PermissionRule[]>();
      groups.set(r.effect, byTool);
      for (const t of r.tools) {
        const list = byTool.get(t) ?? [];
        list.push(r);
        byTool.set(t, list);
      }
    }
    for (const [effect, byTool] of groups) {
      const out = new Map<ToolName, ToolBucket>();
      for (const [tool, list] of byTool) {
        const globs = list.filter((r) => r.glob);
        const rel = combine(globs.filter((r) => !isAbsolutePattern(r)));
        const abs = combine(globs.filter(isAbsolutePattern));
        out.set(tool, {
          rules: list,
          memo: new Map(),
          ...(rel ? { relativeGlobs: rel } : {}),
          ...(abs ? { absoluteGlobs: abs } : {}),
        });
      }
      this.buckets.set(effect, out);
    }
  }

  find(
    effect: RuleEffect,
    s: CallSubject,
    strict: boolean,
    skip?: (r: PermissionRule) => boolean,
  ): PermissionRule | undefined {
    const b = this.buckets.get(effect)?.get(s.tool);
    if (!b) return undefined;
    let maybe: boolean | undefined;
    for (const r of b.rules) {
      // No glob of the bucket can match when the pre-filter says no (its sources over-approximate them).
      if (r.glob && !(maybe ??= this.mayMatch(b, s))) continue;
      if (!skip?.(r) && ruleMatches(r, s, strict)) return r;
    }
    return undefined;
  }

  private mayMatch(b: ToolBucket, s: CallSubject): boolean {
    if (!s.path) return false;
    if (s.path !== this.lastPath) {
      const p = s.path;
      const relative = slashed(p.realRoot?.relative, p.lexicalRoot?.relative);
      const absolute = slashed(p.real, p.lexical);
      // `/` ends every form and never starts one, so `\0`-joined keys are unambiguous.
      const relativeKey = relative.join("\0");
      this.lastForms = { relative, absolute, relativeKey, allKey: relativeKey + "\0\0" + absolute.join("\0") };
      this.lastPath = p;
    }
    const forms = this.lastForms;
    const key = b.absoluteGlobs === undefined ? forms.relativeKey : forms.allKey;
    let hit = b.memo.get(key);
    if (hit === undefined) {
      hit = test(b.relativeGlobs, forms.relative) || test(b.absoluteGlobs, forms.absolute);
      if (b.memo.size >= MEMO_LIMIT) b.memo.clear();
      b.memo.set(key, hit);
    }
    return hit;
  }
}

function test(re: RegExp | undefined, forms: readonly string[]): boolean {
  if (re !== undefined) for (const f of forms) if (re.test(f)) return true;
  return false;
}
