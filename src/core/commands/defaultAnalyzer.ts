import { existsSync } from "node:fs";
import { join } from "node:path";
import { BashAnalyzer } from "./analyzer";
import { bundleDir, type GrammarFiles } from "./treeSitter";
import type { CommandAnalyzer } from "./types";

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

/** The analyzer the gate uses when none is given: the bash grammar, shared by every gate of the process. */
let shared: BashAnalyzer | undefined;
export function defaultAnalyzer(): CommandAnalyzer {
  shared ??= new BashAnalyzer({ grammarFiles: locateGrammar() });
  return shared;
}
