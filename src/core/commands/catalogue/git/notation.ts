/**
 * git's option tables are written in the notation git prints itself (`git CMD -h`, `--git-completion-helper`),
 * one token per option, and turned into an `OptionSpec` for the one option interpreter (options.ts):
 *
 * - `-x`, `--name`, `-x|--name` (the short one is another spelling of the long one): takes no value;
 * - `=` after it: takes a value, attached or as the next word (`-m msg`, `--message=msg`);
 * - `?` after it: takes an optional value, attached only (`--stat=80`, `-U5`; `--stat 80` is a positional);
 * - a kind after `=` or `?` (`=content`, `=write`, `=names`): what the value is, else plain data;
 * - `!` before it: it makes git run code or another program (a hard ask in every mode), `*` before it: no
 *   allow rule licenses it (it writes a file the grammar names, runs an editor...);
 * - `-NUM`: `-5` is an option.
 *
 * Every long option gets its `--no-` spelling too (parse-options accepts it, and it turns the option off), as a
 * flag. Reasons for `!` and `*` options come from the table the caller gives, keyed by the long name (or the
 * short spelling when there is none).
 */
import type { ArgKind, OptionSpec } from "../options";

export interface Reasons {
  readonly [name: string]: string;
}

const KINDS: readonly ArgKind[] = ["data", "content", "names", "write"];

interface Table {
  flags: string;
  shortArgs: Record<string, ArgKind>;
  shortOptional: Record<string, ArgKind>;
  long: Set<string>;
  longArgs: Record<string, ArgKind>;
  longOptional: Record<string, ArgKind>;
  runs: Record<string, string>;
  dangerous: Record<string, string>;
  same: Record<string, string>;
  numeric: boolean;
}

/** Reads one token into the table. Throws on a token the notation does not allow (a typo in a table). */
function addToken(t: Table, token: string, reasons: Reasons): void {
  if (token === "-NUM") {
    t.numeric = true;
    return;
  }
  const m = /^([!*]?)((?:-[A-Za-z0-9])?)(?:\|?)((?:--[a-z0-9][a-z0-9-]*)?)(?:([=?])([a-z]*))?$/.exec(token);
  const short = m?.[2]?.slice(1) ?? "";
  const long = m?.[3]?.slice(2) ?? "";
  if (!m || (short === "" && long === "") || (token.includes("|") && (short === "" || long === "")))
    throw new Error(`git option table: bad token ${token}`);
  const arity = m[4] as "=" | "?" | undefined;
  const kind = (m[5] || "data") as ArgKind;
  if (!KINDS.includes(kind)) throw new Error(`git option table: bad kind in ${token}`);
  const mark = m[1];
  if (mark) {
    const why = reasons[long || `-${short}`];
    if (!why) throw new Error(`git option table: no reason for ${token}`);
    const into = mark === "!" ? t.runs : t.dangerous;
    if (short) into[`-${short}`] = why;
    if (long) into[`--${long}`] = why;
  }
  if (short && long) t.same[`-${short}`] = `--${long}`;
  if (short) {
    t.flags = t.flags.replace(short, "");
    delete t.shortArgs[short];
    delete t.shortOptional[short];
    if (arity === "=") t.shortArgs[short] = kind;
    else if (arity === "?") t.shortOptional[short] = kind;
    else t.flags += short;
  }
  if (long) {
    t.long.delete(long);
    delete t.longArgs[long];
    delete t.longOptional[long];
    if (arity === "=") t.longArgs[long] = kind;
    else if (arity === "?") t.longOptional[long] = kind;
    else t.long.add(long);
  }
}

/**
 * The grammar of `text` (tokens separated by white space). Later tokens of the same option override earlier
 * ones, so a subcommand can append its own reading of a shared table's option.
 */
export function notation(text: string, reasons: Reasons, extra: Partial<OptionSpec> = {}): OptionSpec {
  const t: Table = {
    flags: "",
    shortArgs: {},
    shortOptional: {},
    long: new Set(),
    longArgs: {},
    longOptional: {},
    runs: {},
    dangerous: {},
    same: {},
    numeric: false,
  };
  for (const token of text.split(/\s+/)) if (token) addToken(t, token, reasons);
  const named = new Set([...t.long, ...Object.keys(t.longArgs), ...Object.keys(t.longOptional)]);
  for (const name of named) {
    if (!name.startsWith("no-") && !named.has(`no-${name}`)) t.long.add(`no-${name}`);
  }
  return {
    flags: t.flags,
    shortArgs: t.shortArgs,
    shortOptional: t.shortOptional,
    long: [...t.long],
    longArgs: t.longArgs,
    longOptional: t.longOptional,
    runs: t.runs,
    dangerous: t.dangerous,
    same: t.same,
    numeric: t.numeric,
    ...extra,
  };
}
