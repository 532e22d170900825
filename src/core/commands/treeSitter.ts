/**
 * Lazy loading of the bash grammar: `web-tree-sitter`'s runtime plus `tree-sitter-bash.wasm`, both read from
 * local files (shipped in `dist/` next to the bundle), never fetched. One runtime per process.
 */
import { readFileSync } from "node:fs";
import { Language, Parser } from "web-tree-sitter";

import type { GrammarFiles } from "./grammarFiles";

export { bundleDir, grammarFilesIn, type GrammarFiles } from "./grammarFiles";

export interface LoadedGrammar {
  readonly parser: Parser;
  /** Wall time of the first load in this process (runtime init + grammar), in milliseconds. */
  readonly loadMs: number;
}

let runtime: Promise<void> | undefined;
const grammars = new Map<string, Promise<LoadedGrammar>>();

export function loadBashGrammar(files: GrammarFiles): Promise<LoadedGrammar> {
  let loaded = grammars.get(files.bash);
  if (!loaded) {
    loaded = load(files);
    grammars.set(files.bash, loaded);
    // A failed load may be retried (a missing file can appear later); a successful one is kept.
    void loaded.catch(() => grammars.delete(files.bash));
  }
  return loaded;
}

// The clock and the file read are Node's own: the global `performance` and a path given to `Language.load`
// (which reads it with fs/promises) would load modules a hook process does not otherwise need.
async function load(files: GrammarFiles): Promise<LoadedGrammar> {
  const start = process.hrtime.bigint();
  if (!runtime) {
    runtime = Parser.init({ locateFile: () => files.runtime });
    void runtime.catch(() => (runtime = undefined));
  }
  await runtime;
  const language = await Language.load(readFileSync(files.bash));
  const parser = new Parser();
  parser.setLanguage(language);
  return { parser, loadMs: Number(process.hrtime.bigint() - start) / 1e6 };
}
