/**
 * What a catalogue entry reports about one command. Entries never decide the verdict themselves: they
 * describe the command (reads, writes, nested commands, dangers) and the analyzer decides.
 *
 * - `dangerous`: a flag that runs another program, or something no allow rule may license (`git -c`,
 *   `rg --pre`, sed's `e` command). The command is never safe.
 * - `deletes`: the command deletes files. Never safe (no switch auto-approves deletion).
 * - `notReadOnly`: the catalogue does not vouch for this use (a subcommand that changes state, an option it
 *   does not know). An allow rule for the command may still license it.
 */
import type { Word } from "../model";
import type { ReadFilter } from "../../readFilter";

/**
 * How a path argument is used. `names`: only names/metadata come out (ls, wc, du), so globs are fine.
 * `file-content`: like `content`, by a reader that reads each named file and never a directory's files (`cat`,
 * `head`, `grep` without `-r`): a glob it is given can be decided from the pattern.
 * `content-nofollow`: like `content`, by a reader that does not follow links below a directory (`grep -r`).
 * `git-repository`: git finds its repository from this directory and reads that repository's configuration
 * (which can run programs); the path gate accepts only the workspace's own top-level repositories.
 * `git-history`: git prints contents from the repository's objects or index (`git show`, `log -p`, `grep`);
 * the path gate asks when the repository tracks a file the ignore file excludes.
 * `git-stage`: git copies the files below into its objects (`git add dir`, `git stash -u`), skipping what
 * git's exclude files name; `git-stage-forced` skips nothing (`git add -f`, `git stash -a`). The path `:/`
 * stands for the whole working tree. The path gate asks when a file the ignore file excludes would go in.
 * `copy-tree`: a content read of a tree that is copied or moved elsewhere whole (`cp -r`, `mv`): besides what
 * a recursive read checks, the path gate asks when the tree holds a protected path (`.vscode/settings.json`,
 * `.git/hooks`), which the copy would plant where it lands.
 */
export type ReadKind =
  | "content"
  | "file-content"
  | "content-nofollow"
  | "names"
  | "git-repository"
  | "git-history"
  | "git-stage"
  | "git-stage-forced"
  | "copy-tree";

export interface Effects {
  /** The text on the command's standard input when the line gives it (a here-document or here-string). */
  readonly stdin: Word | undefined;
  dangerous(reason: string): void;
  deletes(reason: string): void;
  notReadOnly(reason: string): void;
  /**
   * What the command runs is decided only at run time (a payload computed at run time, an option the
   * catalogue does not know where it could change what runs): a hard ask in every mode. Required, so that no
   * wrapper of an Effects can drop it and turn a hard ask into a plain "dangerous".
   */
  unknown(reason: string): void;
  /**
   * A path the command reads. `base` is a directory (as written) the path is relative to (`git -C dir`).
   * `filter`: when the path is a directory read for its content, the files below it the command selects by
   * name (`rg -g '*.ts'`); the others are not read.
   */
  read(path: Word, kind: ReadKind, base?: Word, filter?: ReadFilter): void;
  /** A path the command writes (created, truncated or changed). */
  write(path: Word, base?: Word): void;
  /**
   * Files are moved to `dest` (`mv SRC DEST`): where `dest` lies outside the workspace, they are gone from it,
   * which is a deletion (a hard ask in every mode). A move inside the workspace is not.
   */
  movesTo(dest: Word, base?: Word): void;
  /**
   * An argument the command may read or write although its use is not modelled (a program the catalogue
   * does not know, a state-changing git subcommand): only what binds in every mode counts — an ignored or
   * read-denied file is refused, a protected path (when `writes`) or an ask rule asks. Nothing else changes
   * the verdict.
   */
  mayTouch(path: Word, base: Word | undefined, writes: boolean): void;
  /**
   * Runs `argv` as a command (wrappers, `find -exec`, `xargs`). An allow rule for the outer command that
   * reaches past its first `prefix` words licenses the nested command too.
   */
  nested(argv: readonly Word[], opts: NestedOptions): void;
  /** Runs a shell string (`bash -c`, `eval`, `watch`). */
  payload(script: Word, what: string): void;
  /** Sets a shell variable (`export NAME=value`, `read NAME`): checked like an assignment. */
  assign(name: string, value: Word): void;
  /** Changes the working directory for what follows: a target word, home, or somewhere unknown. */
  chdir(target: Word | "home" | "unknown"): void;
  /** Names the catalogue entry that vouched for the command, for `rule` ("catalogue: git log"). */
  label(name: string): void;
}

export interface NestedOptions {
  /** How many words of the outer command precede `argv`. */
  readonly prefix: number;
  /** It also receives words not known here (xargs input); it then reads no here-document either. */
  readonly extraArgs?: boolean;
  /** Environment assignments for it only (`env NAME=value cmd`). */
  readonly assignments?: readonly { name: string; value: Word }[];
  /**
   * A guess at where an unknown program's command starts (`strace -f rm x`): used only to find denied and
   * ask-rule commands; the outer command is already not vouched for.
   */
  readonly guess?: boolean;
}

export type ProgramCheck = (argv: readonly Word[], fx: Effects) => void;

/**
 * A sub-language or option runs code the analysis does not model (awk `system`, sed `e`, `tar -I`, `git -c
 * core.fsmonitor`): which program runs is decided only at run time, so this is a hard ask in every mode, and
 * the analyzer searches the whole line for denied programs. Never only "dangerous", which "run all commands"
 * and auto mode would let through.
 */
export function runsCode(fx: Effects, reason: string): void {
  fx.unknown(reason);
}

/** Whether a catalogue's reason for a dangerous option says the option starts a program named by its value. */
export function startsProgram(why: string): boolean {
  return /^(can )?runs? (a |an |text-conversion )/.test(why);
}

/** A dangerous option: a hard ask when it starts a program (`rg --pre`, `git --ext-diff`), else dangerous. */
export function dangerousOption(fx: Effects, reason: string, why: string): void {
  if (startsProgram(why)) runsCode(fx, reason);
  else fx.dangerous(reason);
}
