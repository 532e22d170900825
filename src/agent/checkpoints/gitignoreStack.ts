/**
 * The person's `.gitignore` files as git applies them while walking a tree: the file of each directory applies
 * below it, a deeper file overrides a shallower one, and within one file the last matching line wins (`!`
 * re-includes). A directory that is excluded is not entered, so nothing below it can be re-included — the
 * walk gets that for free by never descending.
 */
import ignore, { type Ignore } from "ignore";

interface Level {
  /** Directory of the .gitignore, root-relative with a trailing `/` ("" for the root). */
  readonly dir: string;
  readonly rules: Ignore;
}

export class GitignoreStack {
  private constructor(private readonly levels: readonly Level[]) {}

  static empty(): GitignoreStack {
    return new GitignoreStack([]);
  }

  /** The stack for the entries of `dir` ("" or `a/b/`), given the text of its own .gitignore if any. */
  enter(dir: string, text: string | undefined): GitignoreStack {
    if (text === undefined || text.trim() === "") return this;
    return new GitignoreStack([...this.levels, { dir, rules: ignore({ allowRelativePaths: true }).add(text) }]);
  }

  /** `relative` is root-relative; `isDir` tests the directory form too (`build/` patterns). */
  ignores(relative: string, isDir: boolean): boolean {
    for (let i = this.levels.length - 1; i >= 0; i--) {
      const level = this.levels[i]!;
      const local = relative.slice(level.dir.length);
      const r = level.rules.test(isDir ? local + "/" : local);
      if (r.ignored) return true;
      if (r.unignored) return false;
    }
    return false;
  }
}
