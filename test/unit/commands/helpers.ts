/**
 * Test fixtures: the product's own command context over a real temporary workspace, and one loaded analyzer
 * shared by a test file.
 *
 * The workspace `WS` (created once per test file, removed after it) is a git repository whose
 * `.toolgateignore` ignores `.env` and `secrets/`, both present, beside a `src/` that holds only `a.ts`; `HOME`
 * is a separate temporary directory, outside it. The path gate is the real `CommandPathGate` of a real `Gate` (`Gate.commandContext`), with
 * reading and editing inside the workspace auto-approved and outside it not, so protected paths, the ignore
 * file and the workspace boundary are judged exactly as the product judges them (rule names included:
 * `ignoreFile: .toolgateignore`, `protected: **\/.git/**`, `path:external-read`, `path:external-write`).
 * Only the argv lists (`allow`, `deny`, `ask`) and `platform` are the test's own: they are plain inputs of
 * the analysis, not judgements.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll } from "vitest";
import { BashAnalyzer } from "../../../src/core/commands/analyzer";
import type {
  CommandAnalysis,
  CommandContext,
  PathAccess,
  PathGate,
  PathVerdict,
} from "../../../src/core/commands/types";
import type { ReadKind } from "../../../src/core/commands/catalogue/effects";
import type { ReadFilter } from "../../../src/core/readFilter";
import { gateWith } from "../../support/gate";

const top = realpathSync(mkdtempSync(path.join(tmpdir(), "toolgate-analyzer-")));
afterAll(() => rmSync(top, { recursive: true, force: true }));

/** The workspace root (a real directory: its realpath, so spellings match what the gate resolves). */
export const WS = path.join(top, "ws");
/** The home directory the analyzer expands `~` to (outside the workspace). */
export const HOME = path.join(top, "home");

mkdirSync(path.join(WS, "secrets"), { recursive: true });
mkdirSync(path.join(WS, "src"), { recursive: true });
mkdirSync(HOME, { recursive: true });
execFileSync("git", ["init", "-q", WS], { stdio: "ignore" });
writeFileSync(path.join(WS, ".toolgateignore"), ".env\nsecrets/\n");
writeFileSync(path.join(WS, ".env"), "TOKEN=x\n");
writeFileSync(path.join(WS, "secrets", "key.pem"), "key\n");
writeFileSync(path.join(WS, "src", "a.ts"), "export const a = 1;\n");

const gate = await gateWith(
  {
    "toolgate.autoApprove.actions": {
      readFiles: true,
      readFilesExternally: false,
      editFiles: true,
      editFilesExternally: false,
    },
  },
  [WS],
  { deferAnalyzer: true, platform: "posix" },
);

const require = createRequire(import.meta.url);
export const GRAMMAR = {
  runtime: require.resolve("web-tree-sitter/tree-sitter.wasm"),
  bash: require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"),
};

/** The product's path gate, with a record of what the analysis asked it (each verdict is the product's). */
export class RecordingPathGate implements PathGate {
  readonly calls: { path: string; cwd: string; access: PathAccess }[] = [];
  constructor(private readonly inner: PathGate) {}
  check(path: string, cwd: string, access: PathAccess, kind?: ReadKind, filter?: ReadFilter): PathVerdict {
    this.calls.push({ path, cwd, access });
    return this.inner.check(path, cwd, access, kind, filter);
  }
  checkPattern(pattern: string, cwd: string): PathVerdict {
    if (!this.inner.checkPattern) throw new Error("the product's path gate checks patterns");
    return this.inner.checkPattern(pattern, cwd);
  }
  unresolved(access: PathAccess, shown: string): void {
    this.inner.unresolved?.(access, shown);
  }
  inWorkspace(path: string, cwd: string): boolean {
    if (!this.inner.inWorkspace) throw new Error("the product's path gate knows the workspace");
    return this.inner.inWorkspace(path, cwd);
  }
}

export function context(
  opts: Partial<Pick<CommandContext, "allow" | "deny" | "ask" | "cwd" | "platform">> = {},
): CommandContext {
  const product = gate.commandContext(opts.cwd ?? WS);
  return {
    ...product,
    allow: opts.allow ?? [],
    deny: opts.deny ?? [],
    ask: opts.ask ?? [],
    paths: new RecordingPathGate(product.paths),
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
