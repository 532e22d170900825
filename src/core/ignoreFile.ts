import ignore, { type Ignore } from "ignore";
import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { ignorePrefilter } from "./ignorePrefilter";
import { windowsSpelling } from "./windowsNames";

/**
 * The ignore file of each workspace root (gitignore syntax with `!` negation). The host reloads it when the
 * file changes by building a new instance; an instance never changes after construction.
 */
export class IgnoreRules {
  /** Verdicts per root by relative path: the rules never change, so a verdict holds for the instance's life. */
  private readonly memo = new Map<number, Map<string, boolean>>();

  private constructor(
    private readonly perRoot: ReadonlyMap<
      number,
      { readonly exact: Ignore; readonly maybe?: RegExp; readonly text: string }
    >,
    readonly fileName: string,
  ) {
    for (const i of perRoot.keys()) this.memo.set(i, new Map());
  }

  static empty(fileName: string): IgnoreRules {
    return new IgnoreRules(new Map(), fileName);
  }

  /** Builds from file contents per root index (undefined = no file). */
  static fromContents(fileName: string, contents: readonly (string | undefined)[]): IgnoreRules {
    const map = new Map<number, { exact: Ignore; maybe?: RegExp; text: string }>();
    contents.forEach((text, i) => {
      if (text === undefined || text.trim() === "") return;
      const maybe = ignorePrefilter(text);
      map.set(i, { exact: ignore().add(text), text, ...(maybe ? { maybe } : {}) });
    });
    return new IgnoreRules(map, fileName);
  }

  /**
   * Reads `fileName` from each root. A missing file means "nothing ignored"; any other read error throws,
   * because silently ignoring an unreadable ignore file would expose what it protects.
   */
  static load(roots: readonly string[], fileName: string): IgnoreRules {
    const contents = roots.map((root) => {
      try {
        return readFileSync(nodePath.join(root, fileName), "utf8");
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw new Error(`cannot read ${nodePath.join(root, fileName)}: ${(e as Error).message}`);
      }
    });
    return IgnoreRules.fromContents(fileName, contents);
  }

  /** The ignore file's text for root `rootIndex` (undefined: no rules), for reasoning about patterns. */
  text(rootIndex: number): string | undefined {
    return this.perRoot.get(rootIndex)?.text;
  }

  /** Whether root `rootIndex` has an ignore file with any rule. */
  hasRules(rootIndex: number): boolean {
    return this.perRoot.has(rootIndex);
  }

  /** `relative` is `/`-separated and relative to root `rootIndex`. A directory is checked with and without its trailing slash. */
  ignores(rootIndex: number, relative: string): boolean {
    const memo = this.memo.get(rootIndex);
    if (memo === undefined || relative === "") return false;
    let hit = memo.get(relative);
    if (hit === undefined) {
      const ig = this.perRoot.get(rootIndex)!;
      const one = (r: string) =>
        ig.maybe !== undefined && !ig.maybe.test(r) ? false : ig.exact.ignores(r) || ig.exact.ignores(r + "/");
      // A spelling Windows reads as another name (`.env.`, `.env::$DATA`) is hidden when that name is.
      const win = windowsSpelling(relative);
      hit = one(relative) || (win !== undefined && win !== "" && one(win));
      if (memo.size > 20_000) memo.clear();
      memo.set(relative, hit);
    }
    return hit;
  }
}
