/**
 * The one option interpreter of the catalogue: a getopt-style reader of argv against a declarative
 * per-program grammar (`OptionSpec`). Every spelling getopt_long accepts is read the same way for every
 * program: short options and clusters (`-xvf`), attached and separate values (`-fx`, `-f x`), optional values
 * (attached only: `-i.bak`, `--color=auto`), long options with `=` or a separate value, GNU's unambiguous
 * abbreviations (`--out=x` for `--output`), `-NUM`, old-style bundles (`tar xvf x.tar`) and `--`.
 *
 * Options are whitelisted: an option the grammar does not know is dangerous (it could run, write or read
 * anything, so no allow rule licenses it). A long option that could abbreviate a dangerous, code-running or
 * deleting one (`--outp` for `--output`) counts as that option, even where it could also abbreviate a harmless
 * one. The effects of values (reads, writes) are reported here; what an option does beyond its value
 * (`dangerous`, `runs`, `deletes`) is reported here too, so a program's own code only interprets the positionals.
 */
import { literalWord, UNKNOWN, type Word } from "../model";
import { dangerousOption, runsCode, type Effects } from "./effects";

/**
 * What an option argument is: plain data, a file read for its content or only its name, a file written, or a
 * colon-separated list of files read for their content (`file -m a:b`).
 */
export type ArgKind = "data" | "content" | "names" | "write" | "content-list";

export interface OptionSpec {
  /** Short options without an argument, e.g. `"lnr"`. */
  readonly flags?: string;
  readonly shortArgs?: Readonly<Record<string, ArgKind>>;
  /** Long options without an argument (names without `--`). */
  readonly long?: readonly string[];
  /** Long options with a required argument (`--name=value` or `--name value`). */
  readonly longArgs?: Readonly<Record<string, ArgKind>>;
  /**
   * Long options that take two words, a name then a value of this kind (`jq --arg NAME VALUE`, `jq --rawfile
   * NAME FILE`). `Seen` records the second as the option's value.
   */
  readonly longPairs?: Readonly<Record<string, ArgKind>>;
  /** Long options with an optional `=value`. */
  readonly longOptional?: Readonly<Record<string, ArgKind>>;
  /** Short options whose value is optional and, when given, attached (`sed -i.bak`, `grep --color`). */
  readonly shortOptional?: Readonly<Record<string, ArgKind>>;
  /**
   * Short options whose value is always the next word, even inside a cluster, and the cluster goes on after
   * them (the shells' `-o`: `bash -cox errexit CMD` is `-c -o errexit -x CMD`; `-oo a b` takes both).
   */
  readonly shortNext?: Readonly<Record<string, ArgKind>>;
  /**
   * `+x` clusters are read like `-x` ones, with the same letters (the shells' `+o NAME`, `+c`); `Seen` records
   * them as `+x`, and a lone `+` is an empty cluster. A dangerous or deleting `-x` is so as `+x` too.
   */
  readonly plus?: boolean;
  /** `-name` is the long option `--name` when `name` is exactly one (bash's `-norc`, `-rcfile FILE`). */
  readonly singleDashLong?: boolean;
  /**
   * Long options come only before the first short option (bash): after it, `--name` is not an option the
   * program accepts (unknown here) and `-name` is a cluster of letters.
   */
  readonly longFirst?: boolean;
  /** A lone `-` ends the options as `--` does (the shells), instead of being a positional. */
  readonly dashEnds?: boolean;
  /**
   * Options (canonical names) after which the reading stops: `ParsedArgs.stoppedAt` says where, and the
   * caller reads the rest itself (`env -S STRING` splits STRING into words that stand in its place).
   */
  readonly stopAfter?: readonly string[];
  /**
   * `-x` or `--name` → why it is dangerous (it runs a program, or similar). A dangerous option keeps the value
   * its table entry (`shortArgs`, `longArgs`) gives it; without one it takes none.
   */
  readonly dangerous?: Readonly<Record<string, string>>;
  /**
   * `-x` or `--name` → why it makes the program run code or another program (`git --ext-diff`, `git clone
   * --upload-pack`): a hard ask in every mode (`runsCode`), whatever the reason's wording. It keeps the value
   * its table entry gives it (which `Seen` records); without one it takes none.
   */
  readonly runs?: Readonly<Record<string, string>>;
  /**
   * `-x` or `--name` → why it deletes or loses data (`tar --remove-files`, `gzip` without `-k`): a hard ask in
   * every mode, as `rm` is. The option must also be in the table (flags, long, or with its value kind).
   */
  readonly deletes?: Readonly<Record<string, string>>;
  /**
   * Other spellings of one option (`-f` → `--file`, `--get` → `--extract`): `Seen` records the canonical
   * one, with its values, so a program asks about one name.
   */
  readonly same?: Readonly<Record<string, string>>;
  /**
   * The first word may be an old-style bundle of short letters without a dash, whose values follow in order
   * (`tar cvfb x.tar 20`: `-c -v -f x.tar -b 20`).
   */
  readonly bundle?: boolean;
  /**
   * Long options are read by exact name only (the program's own parser, not getopt_long: bzip2, zstd). A
   * prefix of a dangerous or deleting option still counts as it (fail closed); any other prefix is unknown.
   */
  readonly exact?: boolean;
  /**
   * What an option the grammar does not know (or one computed at run time) makes the command: "dangerous"
   * (the default), or "unknown" — a hard ask — for wrappers, where it could take a value and so move where
   * the command they run starts.
   */
  readonly unknownOptions?: "dangerous" | "unknown";
  /** `-NUM` is an option (`head -5`). */
  readonly numeric?: boolean;
  /** Options end at the first positional (POSIX getopt); otherwise GNU permutes them. */
  readonly posix?: boolean;
  /**
   * No option of this program can do harm, so a word computed at run time, or a glob that could expand to a
   * file named like an option, may stand where an option could.
   */
  readonly optionsHarmless?: boolean;
}

/**
 * Options seen, in canonical form (`-e`, `--regexp`, or what `same` maps them to), in order, with the values
 * each took. Usually empty or tiny.
 */
export class Seen {
  private list: string[] | undefined;
  private at: number[] | undefined;
  private values: Map<string, Word[]> | undefined;
  /** `index`: where in argv the option was written. */
  add(option: string, index = -1): void {
    (this.list ??= []).push(option);
    (this.at ??= []).push(index);
  }
  /** The argv index where `option` was first written, or -1. */
  indexOf(option: string): number {
    const i = this.list?.indexOf(option) ?? -1;
    return i < 0 ? -1 : this.at![i]!;
  }
  has(option: string): boolean {
    return this.list !== undefined && this.list.includes(option);
  }
  /** Every option seen, in order (repeats included). */
  all(): readonly string[] {
    return this.list ?? [];
  }
  setValue(option: string, value: Word): void {
    const values = (this.values ??= new Map());
    const list = values.get(option);
    if (list) list.push(value);
    else values.set(option, [value]);
  }
  /** The value the option last took (`-t DIR`, `--target-directory=DIR`), if it took one. */
  valueOf(option: string): Word | undefined {
    const list = this.values?.get(option);
    return list?.[list.length - 1];
  }
  /** Every value the option took, in order. */
  valuesOf(option: string): readonly Word[] {
    return this.values?.get(option) ?? [];
  }
}

export interface ParsedArgs {
  readonly positionals: Word[];
  /** The argv index of each positional. */
  readonly positionalIndexes: number[];
  readonly seen: Seen;
  /** Index in argv of the first positional (for `posix` grammars: where the options ended), if any. */
  readonly firstPositional: number | undefined;
  /** Where the reading stopped after an option of `stopAfter`: the index of the first word not read. */
  readonly stoppedAt: number | undefined;
}

/** `w.value.slice(from)` as a word: literal only if `w` was. */
export function sliceWord(w: Word, from: number): Word {
  return {
    value: w.value.slice(from),
    literal: w.literal,
    splits: w.splits,
    glob: w.glob,
    tilde: undefined,
    pipe: false,
  };
}

/** Could the shell turn this word into something starting with `-`? */
export function mayBeOption(w: Word): boolean {
  if (w.literal) return w.value.startsWith("-");
  const first = w.value[0];
  if (first === undefined || first === UNKNOWN || first === "-") return true;
  // A glob whose first character is a wildcard can expand to a file named `--pre=...`.
  return w.glob && (first === "*" || first === "?" || first === "[");
}

/** Could the shell turn this word into a `+x` cluster (for grammars with `plus`)? */
function mayBePlus(w: Word): boolean {
  if (w.literal) return w.value.startsWith("+");
  const first = w.value[0];
  return first === "+" || (w.glob && (first === "*" || first === "?" || first === "["));
}

export function parseArgs(
  argv: readonly Word[],
  start: number,
  spec: OptionSpec,
  fx: Effects,
  program: string,
): ParsedArgs {
  const positionals: Word[] = [];
  const positionalIndexes: number[] = [];
  const seen = new Seen();
  let at = start;
  const positional = (w: Word, i: number): void => {
    positionals.push(w);
    positionalIndexes.push(i);
    firstPositional ??= i;
  };
  let firstPositional: number | undefined;
  let optionsDone = false;
  const canonical = (option: string): string => spec.same?.[option] ?? option;
  const notKnown = (reason: string): void =>
    spec.unknownOptions === "unknown" ? fx.unknown(reason) : fx.dangerous(reason);
  const takeValue = (option: string, kind: ArgKind, value: Word | undefined): void => {
    if (!value) return;
    seen.setValue(canonical(option), value);
    if (kind === "content" || kind === "names") fx.read(value, kind);
    else if (kind === "write") fx.write(value);
    else if (kind === "content-list" && (!value.literal || value.tilde !== undefined)) fx.read(value, "content");
    else if (kind === "content-list")
      for (const part of value.value.split(":")) if (part !== "") fx.read(literalWord(part), "content");
  };
  /** What an option does besides its value; false when it is dangerous. */
  const effect = (option: string, written = option): boolean => {
    const why = spec.dangerous?.[option];
    if (why) {
      dangerousOption(fx, `\`${program} ${written}\` ${why}`, why);
      return false;
    }
    const runs = spec.runs?.[option];
    if (runs) runsCode(fx, `\`${program} ${written}\` ${runs}`);
    const loses = spec.deletes?.[option];
    if (loses) fx.deletes(`\`${program} ${written}\` ${loses}`);
    seen.add(canonical(written), at);
    if (spec.stopAfter?.includes(canonical(written))) stop = true;
    return true;
  };
  let stop = false;
  /**
   * One short option letter `c` of a cluster; `rest` is what follows it in the same word, `next` the
   * following word. Returns how it used them: "cluster" (go on with the next letter), "word" (the rest of
   * the word was its value), "next" (the next word was its value).
   */
  const short = (
    c: string,
    rest: Word | undefined,
    next: () => Word | undefined,
    sign = "-",
  ): "cluster" | "word" | "next" => {
    const option = `-${c}`;
    const written = `${sign}${c}`;
    const arg = spec.shortArgs?.[c];
    const optional = spec.shortOptional?.[c];
    const following = spec.shortNext?.[c];
    const flag = spec.flags?.includes(c) === true && c !== UNKNOWN;
    if (c === UNKNOWN) {
      if (!spec.optionsHarmless) notKnown(`\`${program}\` gets an option computed at run time`);
      return "word";
    }
    if (
      arg === undefined &&
      optional === undefined &&
      following === undefined &&
      !flag &&
      !spec.dangerous?.[option] &&
      !spec.runs?.[option]
    ) {
      notKnown(`\`${written}\` is not an option Toolgate knows for \`${program}\``);
      return "word";
    }
    // A dangerous option's value keeps its own effect too (`sed -f .env` still reads `.env`).
    effect(option, written);
    if (following !== undefined) {
      takeValue(written, following, next());
      return "cluster";
    }
    if (arg !== undefined) {
      takeValue(written, arg, rest ?? next());
      return rest ? "word" : "next";
    }
    if (optional !== undefined) {
      if (rest) takeValue(written, optional, rest);
      return "word";
    }
    return "cluster";
  };
  let i = start;
  const first = argv[start];
  if (spec.bundle && first?.literal && /^[a-zA-Z]+$/.test(first.value)) {
    // Old style: each letter's value is the next unused word, in order.
    let next = start + 1;
    for (const c of first.value) short(c, undefined, () => argv[next++]);
    i = next;
  }
  const optionLike = (w: Word): boolean => mayBeOption(w) || (spec.plus === true && mayBePlus(w));
  let shortSeen = false;
  for (; i < argv.length && !stop; i++) {
    const w = argv[i]!;
    at = i;
    const lone = w.literal && w.value === "-";
    if (optionsDone || !optionLike(w) || (lone && !spec.dashEnds)) {
      positional(w, i);
      if (spec.posix) optionsDone = true;
      continue;
    }
    const v = w.value;
    if (v === "--" || lone) {
      optionsDone = true;
      continue;
    }
    if (w.literal && v === "+") {
      shortSeen = true;
      continue;
    }
    if (!w.literal && computedName(w)) {
      // What option this is (if any) is decided at run time.
      if (!spec.optionsHarmless)
        notKnown(`\`${program}\` gets an argument computed at run time that could be any option`);
      positional(w, i);
      continue;
    }
    const longAllowed = !(spec.longFirst && shortSeen);
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      const name = eq >= 0 ? v.slice(2, eq) : v.slice(2);
      const inline = eq >= 0 ? sliceWord(w, eq + 1) : undefined;
      const resolved: Resolved = longAllowed ? resolveLong(name, spec) : { kind: "unknown", name };
      if (resolved.kind === "unknown") {
        notKnown(`\`--${name}\` is not an option Toolgate knows for \`${program}\``);
        continue;
      }
      const option = `--${resolved.name}`;
      const keep = effect(option);
      if (resolved.kind === "flag") {
        if (inline && keep) notKnown(`\`--${name}\` takes no value`);
      } else if (resolved.kind === "optional") takeValue(option, resolved.arg, inline);
      else if (resolved.kind === "pair") {
        // `--arg NAME VALUE`: `=` would glue the name on (`--arg=NAME VALUE`), as jq does not allow.
        if (inline && keep) fx.dangerous(`\`--${name}\` takes two words, not \`=\``);
        i++;
        takeValue(option, resolved.arg, argv[++i]);
      } else takeValue(option, resolved.arg, inline ?? argv[++i]);
      continue;
    }
    const single = spec.singleDashLong && longAllowed && v[0] === "-" ? lookup(v.slice(1), spec) : undefined;
    if (single && v.length > 2) {
      // Exact names only: `-norc` is `--norc`, but `-nor` is the cluster `-n -o r`.
      const option = `--${single.name}`;
      effect(option);
      if (single.kind === "arg" || single.kind === "pair") takeValue(option, single.arg, argv[++i]);
      continue;
    }
    if (spec.numeric && /^-\d+$/.test(v)) {
      seen.add("-NUM");
      continue;
    }
    shortSeen = true;
    for (let j = 1; j < v.length && !stop; j++) {
      const rest = j < v.length - 1 ? sliceWord(w, j + 1) : undefined;
      const used = short(v[j]!, rest, () => argv[++i], v[0]);
      if (used !== "cluster") break;
    }
  }
  return { positionals, positionalIndexes, seen, firstPositional, stoppedAt: stop ? i : undefined };
}

/** The option-name part of a non-literal word (before `=`, or the first letter) is not plain text. */
function computedName(w: Word): boolean {
  const v = w.value;
  if (!v.startsWith("-") && !v.startsWith("+")) return true;
  const nameEnd = v.startsWith("--") ? (v.indexOf("=") >= 0 ? v.indexOf("=") : v.length) : 2;
  return v.slice(0, nameEnd).includes(UNKNOWN) || /[*?[]/.test(v.slice(0, nameEnd));
}

type Resolved =
  | { kind: "flag"; name: string }
  | { kind: "unknown"; name: string }
  | { kind: "arg" | "optional" | "pair"; name: string; arg: ArgKind };

/** Every long name the grammar knows (without `--`). */
function longNames(spec: OptionSpec): string[] {
  const named = (table: Readonly<Record<string, string>> | undefined): string[] =>
    Object.keys(table ?? {})
      .filter((k) => k.startsWith("--"))
      .map((k) => k.slice(2));
  return [
    ...(spec.long ?? []),
    ...Object.keys(spec.longArgs ?? {}),
    ...Object.keys(spec.longOptional ?? {}),
    ...Object.keys(spec.longPairs ?? {}),
    ...named(spec.dangerous),
    ...named(spec.runs),
  ];
}

function resolveLong(name: string, spec: OptionSpec): Resolved {
  const exact = lookup(name, spec);
  if (exact) return exact;
  if (name === "") return { kind: "unknown", name };
  // GNU getopt accepts any unambiguous prefix; a prefix of a dangerous or deleting option counts as that
  // option even when it is ambiguous (the reading that does harm wins).
  const candidates = [...new Set(longNames(spec).filter((full) => full.startsWith(name)))];
  const harmful = candidates.find(
    (c) => spec.dangerous?.[`--${c}`] ?? spec.runs?.[`--${c}`] ?? spec.deletes?.[`--${c}`],
  );
  // (A deleting option is always in `long`, `longArgs` or `longOptional` too, so it is among the candidates.)
  if (harmful) return lookup(harmful, spec)!;
  if (candidates.length === 1 && !spec.exact) return lookup(candidates[0]!, spec)!;
  return { kind: "unknown", name };
}

/** How the grammar reads `--name` (a dangerous option takes the value its table entry gives it, else none). */
function lookup(name: string, spec: OptionSpec): Resolved | undefined {
  const arg = spec.longArgs?.[name];
  if (arg !== undefined) return { kind: "arg", name, arg };
  const opt = spec.longOptional?.[name];
  if (opt !== undefined) return { kind: "optional", name, arg: opt };
  const pair = spec.longPairs?.[name];
  if (pair !== undefined) return { kind: "pair", name, arg: pair };
  if (spec.long?.includes(name) || spec.dangerous?.[`--${name}`] || spec.runs?.[`--${name}`])
    return { kind: "flag", name };
  return undefined;
}

/**
 * The long option `written` names, as GNU getopt reads it: an exact name, or an abbreviation of exactly one
 * name. Undefined when it names none or is ambiguous (the caller treats that as an unknown option).
 */
export function longName(written: string, names: readonly string[]): string | undefined {
  if (names.includes(written)) return written;
  if (written === "") return undefined;
  let found: string | undefined;
  for (const n of names) {
    if (!n.startsWith(written)) continue;
    if (found !== undefined) return undefined;
    found = n;
  }
  return found;
}

/**
 * The grammar of a program with its own option parser that reads each option as one whole word (`find -H`,
 * `find -D tree`, `xxd -cols 8`): no clusters, no abbreviations, no `=`.
 */
export interface WordOptionSpec {
  /** Option word → the kinds of the values that follow it as separate words, in order (`[]`: none). */
  readonly words: Readonly<Record<string, readonly ArgKind[]>>;
  /**
   * Options whose one value may be attached to the word instead (`find -O3`, `xxd -c8`): option → what the
   * attached text must look like (anything else is not this option).
   */
  readonly attached?: Readonly<Record<string, RegExp>>;
  /**
   * The options are the leading words only: the first word that is none of them (a start point, or an
   * expression word like `-name`) ends them, and the caller reads on from there. Otherwise a word that looks
   * like an option but is none is an option Toolgate does not know: dangerous.
   */
  readonly leading?: boolean;
  /** `--` ends the options (its index is not a positional). */
  readonly doubleDash?: boolean;
}

export interface ParsedWords {
  readonly positionals: Word[];
  readonly seen: Seen;
  /** Where the caller reads on: the first word not read here (with `leading`), else `argv.length`. */
  readonly end: number;
}

/** Reads argv from `start` against a whole-word grammar (see `WordOptionSpec`). */
export function parseWords(
  argv: readonly Word[],
  start: number,
  spec: WordOptionSpec,
  fx: Effects,
  program: string,
): ParsedWords {
  const positionals: Word[] = [];
  const seen = new Seen();
  const take = (option: string, kind: ArgKind, value: Word | undefined): void => {
    if (!value) return fx.dangerous(`\`${program} ${option}\` needs a value`);
    seen.setValue(option, value);
    if (kind === "content" || kind === "names") fx.read(value, kind);
    else if (kind === "write") fx.write(value);
    else if (kind === "content-list") fx.read(value, "content");
  };
  let optionsDone = false;
  let i = start;
  for (; i < argv.length; i++) {
    const w = argv[i]!;
    const v = w.value;
    if (optionsDone || !mayBeOption(w) || (w.literal && v === "-")) {
      if (spec.leading) break;
      positionals.push(w);
      continue;
    }
    if (!w.literal) {
      if (spec.leading) break;
      fx.dangerous(`\`${program}\` gets an argument computed at run time that could be any option`);
      continue;
    }
    if (spec.doubleDash && v === "--") {
      optionsDone = true;
      if (spec.leading) {
        i++;
        break;
      }
      continue;
    }
    const kinds = Object.prototype.hasOwnProperty.call(spec.words, v) ? spec.words[v] : undefined;
    if (kinds) {
      seen.add(v, i);
      for (const kind of kinds) take(v, kind, argv[++i]);
      continue;
    }
    const prefix = Object.keys(spec.attached ?? {}).find(
      (o) => v.startsWith(o) && spec.attached![o]!.test(v.slice(o.length)),
    );
    if (prefix !== undefined) {
      seen.add(prefix, i);
      seen.setValue(prefix, sliceWord(w, prefix.length));
      continue;
    }
    if (spec.leading) break;
    fx.dangerous(`\`${v}\` is not an option Toolgate knows for \`${program}\``);
  }
  return { positionals, seen, end: i };
}
