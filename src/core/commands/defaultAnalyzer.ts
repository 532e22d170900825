import { existsSync } from "node:fs";
import { join } from "node:path";
import { bundleDir, type GrammarFiles } from "./grammarFiles";
import type { CommandAnalysis, CommandAnalyzer, CommandContext } from "./types";

/**
 * Where the grammar files are: next to the running bundle (`dist/` of the extension or the CLI), else in a
 * source checkout's `dist/` or `node_modules/` (tests, benchmarks). Never downloaded. When none is found the
 * analyzer's `ready()` fails, and so does building a gate: no grammar, no command approvals.
 */
export function locateGrammar(dir: string = bundleDir()): GrammarFiles {
  const candidates: GrammarFiles[] = [
    { runtime: join(dir, "tree-sitter.wasm"), bash: join(dir, "tree-sitter-bash.wasm") },
    {
      runtime: join(process.cwd(), "dist", "tree-sitter.wasm"),
      bash: join(process.cwd(), "dist", "tree-sitter-bash.wasm"),
    },
    {
      runtime: join(process.cwd(), "node_modules", "web-tree-sitter", "tree-sitter.wasm"),
      bash: join(process.cwd(), "node_modules", "tree-sitter-bash", "tree-sitter-bash.wasm"),
    },
  ];
  return candidates.find((c) => existsSync(c.runtime) && existsSync(c.bash)) ?? candidates[0]!;
}

/**
 * The bash analyzer, loaded on the first `ready()`: its module (the grammar binding, the catalogue's tables)
 * is imported only then, so a process that decides no command — a hook answering a file read — never loads or
 * evaluates it. The CLI ships it as a bundle of its own (dist/cli-analyzer.js, see esbuild.mjs).
 * Invariant: until `ready()` has resolved, `analyze` answers `unparseable` (the gate asks; headless, denies),
 * as the `CommandAnalyzer` contract requires.
 */
class LazyBashAnalyzer implements CommandAnalyzer {
  private inner: CommandAnalyzer | undefined;
  private loading: Promise<void> | undefined;

  ready(): Promise<void> {
    this.loading ??= import("./analyzer").then(async ({ BashAnalyzer }) => {
      const a = new BashAnalyzer({ grammarFiles: locateGrammar() });
      await a.ready();
      this.inner = a;
    });
    // A failed load is not remembered: the next gate tries again (and fails closed meanwhile).
    return this.loading.catch((e: unknown) => {
      this.loading = undefined;
      throw e;
    });
  }

  analyze(command: string, ctx: CommandContext): CommandAnalysis {
    if (this.inner) return this.inner.analyze(command, ctx);
    return {
      verdict: "unparseable",
      reason: "the command analysis is not loaded",
      rule: "commands:not-ready",
      readOnly: false,
      deletes: false,
    };
  }
}

/** The analyzer the gate uses when none is given: the bash grammar, shared by every gate of the process. */
let shared: CommandAnalyzer | undefined;
export function defaultAnalyzer(): CommandAnalyzer {
  shared ??= new LazyBashAnalyzer();
  return shared;
}
