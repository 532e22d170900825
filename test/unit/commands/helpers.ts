/**
 * Test fixtures: a lexical path gate over a pretend workspace `/ws` (protected `.git/**`, `.vscode/*.json`,
 * `.github/workflows/**`, `.husky/**`, `.toolgateignore`; ignored `.env` and `secrets/**`; nothing outside
 * `/ws` may be read or written), and one loaded analyzer shared by a test file.
 */
import { posix } from "node:path";
import { createRequire } from "node:module";
import { BashAnalyzer } from "../../../src/core/commands/analyzer";
import type {
  CommandAnalysis,
  CommandContext,
  PathAccess,
  PathGate,
  PathVerdict,
} from "../../../src/core/commands/types";

export const WS = "/ws";
export const HOME = "/home/user";

const require = createRequire(import.meta.url);
export const GRAMMAR = {
  runtime: require.resolve("web-tree-sitter/tree-sitter.wasm"),
  bash: require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"),
};

function isIgnored(rel: string): boolean {
  const parts = rel.split("/");
  return parts.includes(".env") || parts[0] === "secrets";
}

function isProtected(rel: string): boolean {
  const parts = rel.split("/");
  const name = parts[parts.length - 1]!;
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] === ".git" || parts[i] === ".husky") return true;
    if (parts[i] === ".github" && parts[i + 1] === "workflows") return true;
    if (parts[i] === ".vscode" && i === parts.length - 2 && name.endsWith(".json")) return true;
  }
  return name === ".toolgateignore";
}

export class FakePathGate implements PathGate {
  readonly calls: { path: string; cwd: string; access: PathAccess }[] = [];
  check(path: string, cwd: string, access: PathAccess): PathVerdict {
    this.calls.push({ path, cwd, access });
    const abs = posix.resolve(cwd, path);
    const rel = posix.relative(WS, abs);
    if (rel === ".." || rel.startsWith("../") || posix.isAbsolute(rel)) {
      return {
        ok: false,
        reason: `${access === "write" ? "writes" : "reads"} outside the workspace: ${path}`,
        rule: "path:outside-workspace",
      };
    }
    if (isIgnored(rel)) return { ok: false, reason: `${path} is ignored by .toolgateignore`, rule: "path:ignored" };
    if (access === "write" && isProtected(rel))
      return { ok: false, reason: `${path} is a protected path`, rule: "path:protected" };
    return { ok: true };
  }
}

export function context(
  opts: Partial<Pick<CommandContext, "allow" | "deny" | "ask" | "cwd" | "platform">> = {},
): CommandContext {
  return {
    allow: opts.allow ?? [],
    deny: opts.deny ?? [],
    ask: opts.ask ?? [],
    cwd: opts.cwd ?? WS,
    paths: new FakePathGate(),
    platform: opts.platform ?? "posix",
  };
}

let shared: Promise<BashAnalyzer> | undefined;

/** One analyzer with the grammar loaded, per test file. */
export function loadedAnalyzer(): Promise<BashAnalyzer> {
  shared ??= (async () => {
    const a = new BashAnalyzer({ grammarFiles: GRAMMAR, homeDir: HOME });
    await a.ready();
    return a;
  })();
  return shared;
}

export function verdictOf(
  a: BashAnalyzer,
  command: string,
  ctx: CommandContext = context(),
): CommandAnalysis["verdict"] {
  return a.analyze(command, ctx).verdict;
}
