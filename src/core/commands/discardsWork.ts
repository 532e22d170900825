/**
 * git subcommands that discard uncommitted work (DESIGN step 3, "deletion and data loss": `git checkout --`,
 * `restore`, `reset --hard`, `stash drop`; `git clean` and `git rm` are the catalogue's own deletions). The
 * analysis reports them as deletion, which asks in every mode. `args` are git's words after its global options.
 *
 * `git checkout X` with one plain word is a branch switch, which git itself refuses when it would lose changes,
 * unless the word looks like a file (`.`, a glob, a name with an extension): that one counts as discarding.
 */
const CHECKOUT_DISCARDS = new Set(["--", "-f", "--force", ".", "-p", "--patch", "--ours", "--theirs", "--merge", "-m"]);
const CHECKOUT_NEW_BRANCH = new Set(["-b", "-B", "-c", "-C", "--orphan"]);

function checkoutDiscards(rest: readonly string[]): boolean {
  if (rest.some((a) => CHECKOUT_DISCARDS.has(a) || a.startsWith("--pathspec-from-file"))) return true;
  if (rest.some((a) => CHECKOUT_NEW_BRANCH.has(a))) return false;
  const plain = rest.filter((a) => !a.startsWith("-"));
  // `git checkout REV PATH…` restores paths from a revision.
  if (plain.length >= 2) return true;
  return plain.some((a) => /[*?[]/.test(a) || /\.[A-Za-z0-9]+$/.test(a) || a.startsWith("./") || a === "..");
}

/** Why the git command discards uncommitted work, or undefined. */
export function gitDiscardsWork(args: readonly string[]): string | undefined {
  const [sub, ...rest] = args;
  switch (sub) {
    case "checkout":
      return checkoutDiscards(rest) ? "`git checkout` of paths discards their uncommitted changes" : undefined;
    case "restore": {
      // Only `--staged` (without `--worktree`/`-W`) leaves the working tree alone.
      const staged = rest.some((a) => a === "--staged" || a === "-S");
      const worktree = rest.some((a) => a === "--worktree" || a === "-W");
      return !staged || worktree ? "`git restore` discards uncommitted changes" : undefined;
    }
    case "reset":
      return rest.some((a) => a === "--hard" || a === "--merge")
        ? "`git reset --hard` discards uncommitted changes"
        : undefined;
    case "stash":
      return rest[0] === "drop" || rest[0] === "clear" ? `\`git stash ${rest[0]}\` discards stashed work` : undefined;
    case "switch":
      return rest.some((a) => a === "--discard-changes" || a === "-f" || a === "--force")
        ? "`git switch --discard-changes` discards uncommitted changes"
        : undefined;
    default:
      return undefined;
  }
}
