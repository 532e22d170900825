/**
 * `git config`: reading (an action that reads, `get`/`list`, or a single name) is read-only; setting writes the
 * configuration file (`.git/config` is protected, `~/.gitconfig` lies outside) and `--edit` runs an editor. A
 * file named with `--file`/`--blob` is read through the path gate; `--includes` with one follows include
 * directives to files the gate never sees. Any option the grammar does not list is a hard ask.
 */
import { literalWord, type Word } from "../../model";
import type { Effects } from "../effects";
import { parseArgs } from "../options";
import { notation } from "./notation";
import { REASONS } from "./grammars";
import { readRevOrPath } from "./readers";

/** `git config`'s options (checked against the real git's `-h`). */
export const CONFIG = notation(
  "--global --system --local --worktree -f|--file= --blob= --get --get-all --get-regexp --get-urlmatch " +
    "--replace-all --add --unset --unset-all --rename-section --remove-section -l|--list --fixed-value " +
    "*-e|--edit --get-color --get-colorbool -t|--type= --bool --int --bool-or-int --bool-or-str --path " +
    "--expiry-date -z|--null --name-only --includes --show-origin --show-scope --default= --comment= --value= " +
    "--url= --all --show-names --regexp",
  REASONS,
  { unknownOptions: "unknown" },
);

/** Old-style actions that only read. */
const READS = ["--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "--get-color", "--get-colorbool"];
/** Old-style actions that change a configuration file. */
const WRITES = ["--add", "--replace-all", "--unset", "--unset-all", "--rename-section", "--remove-section"];

const HOME_CONFIG: Word = { ...literalWord("~/.gitconfig"), literal: false, tilde: "home" };

export function config(args: readonly Word[], fx: Effects, base: Word | undefined): void {
  const { positionals: names, seen } = parseArgs(args, 0, CONFIG, fx, "git config");
  const file = seen.valueOf("--file");
  if (file && !(file.literal && file.value === "-")) fx.read(file, "content", base);
  const blob = seen.valueOf("--blob");
  if (blob) readRevOrPath(blob, fx, base);
  if (seen.has("--includes") && (file || blob))
    fx.dangerous("`git config --includes` with a file follows its include directives");
  let action: "read" | "write" | undefined;
  if (WRITES.some((o) => seen.has(o))) action = "write";
  else if (READS.some((o) => seen.has(o))) action = "read";
  // New-style subcommands (`git config get NAME`, `git config set NAME VALUE`).
  const first = names[0];
  if (action === undefined && first?.literal && /^(get|list)$/.test(first.value)) action = "read";
  else if (action === undefined && first?.literal && /^(set|unset|rename-section|remove-section)$/.test(first.value))
    action = "write";
  else if (action === undefined && first?.literal && first.value === "edit")
    fx.dangerous("`git config edit` runs an editor");
  else if (action === undefined) action = names.length <= 1 ? "read" : "write";
  if (action === "read") {
    // Reading global or system configuration by name reads files outside the workspace.
    if (seen.has("--global")) fx.read(HOME_CONFIG, "content");
    if (seen.has("--system")) fx.read(literalWord("/etc/gitconfig"), "content");
    return;
  }
  fx.notReadOnly("`git config` changes configuration");
  if (file) fx.write(file, base);
  else if (seen.has("--global")) fx.write(HOME_CONFIG);
  else if (blob) fx.dangerous("`git config --blob` cannot be written");
  else if (!seen.has("--system")) fx.write(literalWord(".git/config"), base);
  else fx.write(literalWord("/etc/gitconfig"));
}
