/**
 * Where the grammar files are, without loading the grammar: a module of its own so code that only locates them
 * (core/commands/defaultAnalyzer.ts) does not pull `web-tree-sitter` into its bundle.
 */
import { join } from "node:path";

export interface GrammarFiles {
  /** `tree-sitter.wasm`, the runtime of web-tree-sitter. */
  readonly runtime: string;
  /** `tree-sitter-bash.wasm`, the grammar. */
  readonly bash: string;
}

/** Both files in one directory, as `esbuild.mjs` lays them out in `dist/`. */
export function grammarFilesIn(dir: string): GrammarFiles {
  return { runtime: join(dir, "tree-sitter.wasm"), bash: join(dir, "tree-sitter-bash.wasm") };
}

/** The directory of the running bundle (`dist/` for the extension and the CLI). */
export function bundleDir(): string {
  return typeof __dirname === "string" ? __dirname : process.cwd();
}
