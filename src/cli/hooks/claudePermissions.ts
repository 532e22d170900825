/**
 * Claude Code's own `permissions.deny` and `permissions.ask` rules, matched against a command line BEFORE the
 * hook rewrites it into Toolgate's sandbox: Claude Code checks its rules against the input it will run, and the
 * rewritten line (`node cli.js sandbox … -- LINE`) no longer matches a rule written for LINE. So the hook must
 * answer deny (or ask) itself wherever a rule of the person's would have.
 *
 * Where Claude Code 2.1.332 reads them (verified in its binary and documentation): the user's
 * `$CLAUDE_CONFIG_DIR/settings.json` (default `~/.claude/settings.json`), each project's `.claude/settings.json`
 * and `.claude/settings.local.json`, and the managed `/etc/claude-code/managed-settings.json` with the drop-in
 * folder `/etc/claude-code/managed-settings.d/*.json` (macOS `/Library/Application Support/ClaudeCode`).
 * Rules given on Claude Code's command line (`--settings`, `--disallowedTools`) are not visible to a hook.
 *
 * Rule syntax: `Bash` (every command), `Bash(cmd)` (exactly), `Bash(prefix:*)` (the prefix as a whole word,
 * then anything), `Bash(glob)` with `*` for any text (a single trailing ` *` also matches nothing).
 *
 * Invariant: the match over-approximates and so fails closed. The line, every piece between shell operators,
 * and every word onward of each piece are tried, each as written and with quotes and backslashes removed, so no
 * wrapper, env prefix, chain or quoting hides a command a rule names; a false match only refuses or asks. A
 * settings file that exists but cannot be read, or a rule for the tool that cannot be parsed, asks.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import * as nodePath from "node:path";
import { parseJsonc } from "../../core/jsonc";

export interface ClaudeRuleHit {
  readonly decision: "deny" | "ask";
  readonly reason: string;
}

export interface ClaudeSettingsPlaces {
  readonly userDirs: readonly string[];
  readonly projectDirs: readonly string[];
  readonly managedDir: string;
}

/** The managed folder Claude Code reads on this platform. */
export function claudeManagedDir(platform: NodeJS.Platform = process.platform): string {
  if (platform === "darwin") return "/Library/Application Support/ClaudeCode";
  if (platform === "win32") return "C:\\Program Files\\ClaudeCode";
  return "/etc/claude-code";
}

/** Where the rules live for a call in `projectDirs` (the workspace roots and the agent's cwd). */
export function claudeSettingsPlaces(env: NodeJS.ProcessEnv, projectDirs: readonly string[]): ClaudeSettingsPlaces {
  const home = env.HOME && nodePath.isAbsolute(env.HOME) ? env.HOME : homedir();
  const userDirs = [nodePath.join(home, ".claude")];
  const configDir = env.CLAUDE_CONFIG_DIR;
  if (configDir && nodePath.isAbsolute(configDir) && !userDirs.includes(configDir)) userDirs.unshift(configDir);
  return { userDirs, projectDirs: [...new Set(projectDirs)], managedDir: claudeManagedDir() };
}

function settingsFiles(p: ClaudeSettingsPlaces): string[] {
  const files = [nodePath.join(p.managedDir, "managed-settings.json")];
  try {
    const dropIn = nodePath.join(p.managedDir, "managed-settings.d");
    for (const name of readdirSync(dropIn).sort())
      if (name.endsWith(".json") && !name.startsWith(".")) files.push(nodePath.join(dropIn, name));
  } catch {
    /* no drop-in folder */
  }
  for (const d of p.userDirs) files.push(nodePath.join(d, "settings.json"));
  for (const d of p.projectDirs)
    files.push(nodePath.join(d, ".claude", "settings.json"), nodePath.join(d, ".claude", "settings.local.json"));
  return files;
}

interface Rule {
  readonly effect: "deny" | "ask";
  readonly text: string;
  readonly file: string;
}

interface Loaded {
  readonly rules: readonly Rule[];
  readonly unreadable: readonly string[];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function loadRules(files: readonly string[]): Loaded {
  const rules: Rule[] = [];
  const unreadable: string[] = [];
  for (const file of files) {
    let text: string;
    try {
      if (!statSync(file, { throwIfNoEntry: false })?.isFile()) continue;
      text = readFileSync(file, "utf8");
    } catch (e) {
      unreadable.push(`${file} (${(e as Error).message})`);
      continue;
    }
    let v: unknown;
    try {
      v = parseJsonc(text);
    } catch (e) {
      unreadable.push(`${file} (${(e as Error).message})`);
      continue;
    }
    if (v === undefined) continue;
    const perms = isRecord(v) ? v.permissions : undefined;
    if (!isRecord(v) || (perms !== undefined && !isRecord(perms))) {
      unreadable.push(`${file} (not a settings object)`);
      continue;
    }
    for (const effect of ["deny", "ask"] as const) {
      const list = perms?.[effect];
      if (list === undefined) continue;
      if (!Array.isArray(list)) {
        unreadable.push(`${file} (permissions.${effect} is not a list)`);
        continue;
      }
      for (const entry of list as unknown[])
        if (typeof entry === "string") rules.push({ effect, text: entry.trim(), file });
        else unreadable.push(`${file} (a permissions.${effect} entry is not a string)`);
    }
  }
  return { rules, unreadable };
}

const OPERATORS = /&&|\|\||\$\(|<\(|>\(|[;&|\n\r()`{}]/;

/** Every text a rule is tried against (see the invariant above). */
export function commandCandidates(line: string): string[] {
  const out = new Set<string>();
  const add = (text: string): void => {
    const words = text.trim().split(/\s+/).filter(Boolean);
    for (let i = 0; i < words.length; i++) out.add(words.slice(i).join(" "));
  };
  for (const variant of [line, line.replace(/['"\\]/g, "")]) {
    add(variant);
    for (const piece of variant.split(OPERATORS)) add(piece);
  }
  return [...out];
}

function globRegExp(glob: string): RegExp {
  const stars = glob.split("*").length - 1;
  const optionalTail = stars === 1 && glob.endsWith(" *");
  const body = optionalTail ? glob.slice(0, -2) : glob;
  const re = body
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${re}${optionalTail ? "(?: .*)?" : ""}$`, "s");
}

/** Whether a rule's specifier (the text inside `Bash(…)`; undefined for a bare `Bash`) names the candidate. */
export function specifierMatches(spec: string | undefined, candidate: string): boolean {
  const s = spec?.trim().replace(/\s+/g, " ");
  if (s === undefined || s === "" || s === "*") return true;
  if (s.endsWith(":*")) {
    const prefix = s.slice(0, -2).trim();
    return candidate === prefix || candidate.startsWith(prefix + " ") || prefix === "";
  }
  if (s.includes("*")) return globRegExp(s).test(candidate);
  return candidate === s;
}

/** `Tool` or `Tool(spec)`: the tool name and the specifier; undefined when the text is neither. */
function parseRule(text: string): { readonly tool: string; readonly spec?: string } | undefined {
  const m = /^([A-Za-z][A-Za-z0-9_-]*)(?:\(([\s\S]*)\))?$/.exec(text);
  if (!m) return undefined;
  return m[2] !== undefined ? { tool: m[1]!, spec: m[2] } : { tool: m[1]! };
}

/**
 * The first of Claude Code's deny rules (then ask rules) for `tools` (`Bash`, and the tool that carries the
 * line) that names `line`; an ask when a settings file or a rule for those tools cannot be read.
 */
export function claudeRuleFor(
  line: string,
  tools: readonly string[],
  places: ClaudeSettingsPlaces,
): ClaudeRuleHit | undefined {
  const loaded = loadRules(settingsFiles(places));
  const candidates = commandCandidates(line);
  const unparsed: string[] = [];
  for (const effect of ["deny", "ask"] as const) {
    for (const rule of loaded.rules) {
      if (rule.effect !== effect) continue;
      const parsed = parseRule(rule.text);
      if (parsed === undefined) {
        if (tools.some((t) => rule.text.startsWith(t))) unparsed.push(`\`${rule.text}\` in ${rule.file}`);
        continue;
      }
      if (!tools.includes(parsed.tool)) continue;
      if (!candidates.some((c) => specifierMatches(parsed.spec, c))) continue;
      const verb = effect === "deny" ? "denies" : "asks before";
      return {
        decision: effect,
        reason: `Claude Code's own rule \`${rule.text}\` (${rule.file}) ${verb} this command, and the sandboxed rewrite would no longer match it`,
      };
    }
  }
  if (loaded.unreadable.length > 0)
    return {
      decision: "ask",
      reason: `Claude Code's settings could not be read (${loaded.unreadable.join("; ")}), so its own deny and ask rules cannot be checked before the sandboxed rewrite`,
    };
  if (unparsed.length > 0)
    return {
      decision: "ask",
      reason: `Claude Code's rule ${unparsed.join(", ")} could not be read, so it cannot be checked before the sandboxed rewrite`,
    };
  return undefined;
}
