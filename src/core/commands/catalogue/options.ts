/**
 * A getopt-style reader of argv against a per-program option table. Options are whitelisted: an option the
 * table does not know is dangerous (it could run, write or read anything, so no allow rule licenses it), and
 * a long option that GNU getopt would accept as an abbreviation of a dangerous one (`--outp` for `--output`)
 * is dangerous.
 */
import { literalWord, UNKNOWN, type Word } from "../model";
import { dangerousOption, type Effects } from "./effects";

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
  /** Long options with an optional `=value`. */
  readonly longOptional?: Readonly<Record<string, ArgKind>>;
  /** `-x` or `--name` → why it is dangerous (it runs a program, or similar). */
  readonly dangerous?: Readonly<Record<string, string>>;
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

/** Options seen, in canonical form (`-e`, `--regexp`), with the last value each took. Usually empty or tiny. */
export class Seen {
  private list: string[] | undefined;
  private values: Map<string, Word> | undefined;
  add(option: string): void {
    (this.list ??= []).push(option);
  }
  has(option: string): boolean {
    return this.list !== undefined && this.list.includes(option);
  }
  setValue(option: string, value: Word): void {
    (this.values ??= new Map()).set(option, value);
  }
  /** The value the option last took (`-t DIR`, `--target-directory=DIR`), if it took one. */
  valueOf(option: string): Word | undefined {
    return this.values?.get(option);
  }
}

export interface ParsedArgs {
  readonly positionals: Word[];
  readonly seen: Seen;
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

export function parseArgs(
  argv: readonly Word[],
  start: number,
  spec: OptionSpec,
  fx: Effects,
  program: string,
): ParsedArgs {
  const positionals: Word[] = [];
  const seen = new Seen();
  let optionsDone = false;
  const takeValue = (option: string, kind: ArgKind, value: Word | undefined): void => {
    if (!value) return;
    seen.setValue(option, value);
    if (kind === "content" || kind === "names") fx.read(value, kind);
    else if (kind === "write") fx.write(value);
    else if (kind === "content-list" && (!value.literal || value.tilde !== undefined)) fx.read(value, "content");
    else if (kind === "content-list")
      for (const part of value.value.split(":")) if (part !== "") fx.read(literalWord(part), "content");
  };
  for (let i = start; i < argv.length; i++) {
    const w = argv[i]!;
    if (optionsDone || !mayBeOption(w)) {
      positionals.push(w);
      if (spec.posix) optionsDone = true;
      continue;
    }
    const v = w.value;
    if (v === "-") {
      positionals.push(w);
      continue;
    }
    if (v === "--") {
      optionsDone = true;
      continue;
    }
    if (!w.literal && computedName(w)) {
      // What option this is (if any) is decided at run time.
      if (!spec.optionsHarmless)
        fx.dangerous(`\`${program}\` gets an argument computed at run time that could be any option`);
      positionals.push(w);
      continue;
    }
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      const name = eq >= 0 ? v.slice(2, eq) : v.slice(2);
      const inline = eq >= 0 ? sliceWord(w, eq + 1) : undefined;
      const resolved = resolveLong(name, spec);
      if (resolved.kind === "dangerous") {
        dangerousOption(fx, `\`${program} --${resolved.name}\` ${resolved.why}`, resolved.why);
        continue;
      }
      if (resolved.kind === "unknown") {
        fx.dangerous(`\`--${name}\` is not an option Toolgate knows for \`${program}\``);
        continue;
      }
      seen.add(`--${resolved.name}`);
      if (resolved.kind === "flag") {
        if (inline) fx.dangerous(`\`--${name}\` takes no value`);
      } else if (resolved.kind === "optional") takeValue(`--${resolved.name}`, resolved.arg, inline);
      else if (resolved.kind === "arg") takeValue(`--${resolved.name}`, resolved.arg, inline ?? argv[++i]);
      continue;
    }
    if (spec.numeric && /^-\d+$/.test(v)) {
      seen.add("-NUM");
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      const c = v[j]!;
      const why = spec.dangerous?.[`-${c}`];
      if (why) {
        dangerousOption(fx, `\`${program} -${c}\` ${why}`, why);
        if (spec.shortArgs?.[c] !== undefined && j === v.length - 1) i++;
        if (spec.shortArgs?.[c] !== undefined) break;
        continue;
      }
      if (spec.flags?.includes(c) && c !== UNKNOWN) {
        seen.add(`-${c}`);
        continue;
      }
      const kind = spec.shortArgs?.[c];
      if (kind !== undefined) {
        seen.add(`-${c}`);
        takeValue(`-${c}`, kind, j < v.length - 1 ? sliceWord(w, j + 1) : argv[++i]);
        break;
      }
      if (c === UNKNOWN) {
        if (!spec.optionsHarmless) fx.dangerous(`\`${program}\` gets an option computed at run time`);
      } else fx.dangerous(`\`-${c}\` is not an option Toolgate knows for \`${program}\``);
      break;
    }
  }
  return { positionals, seen };
}

/** The option-name part of a non-literal word (before `=`, or the first letter) is not plain text. */
function computedName(w: Word): boolean {
  const v = w.value;
  if (!v.startsWith("-")) return true;
  const nameEnd = v.startsWith("--") ? (v.indexOf("=") >= 0 ? v.indexOf("=") : v.length) : 2;
  return v.slice(0, nameEnd).includes(UNKNOWN) || /[*?[]/.test(v.slice(0, nameEnd));
}

type Resolved =
  | { kind: "flag" | "unknown"; name: string }
  | { kind: "arg" | "optional"; name: string; arg: ArgKind }
  | { kind: "dangerous"; name: string; why: string };

function resolveLong(name: string, spec: OptionSpec): Resolved {
  const exact = lookup(name, spec);
  if (exact) return exact;
  // GNU getopt accepts any unambiguous prefix; a prefix of a dangerous option counts as that option.
  const candidates: Resolved[] = [];
  const all = [
    ...(spec.long ?? []),
    ...Object.keys(spec.longArgs ?? {}),
    ...Object.keys(spec.longOptional ?? {}),
    ...Object.keys(spec.dangerous ?? {})
      .filter((k) => k.startsWith("--"))
      .map((k) => k.slice(2)),
  ];
  for (const full of all) if (name.length > 0 && full.startsWith(name)) candidates.push(lookup(full, spec)!);
  const danger = candidates.find((c) => c.kind === "dangerous");
  if (danger) return danger;
  if (candidates.length === 1) return candidates[0]!;
  return { kind: "unknown", name };
}

function lookup(name: string, spec: OptionSpec): Resolved | undefined {
  const why = spec.dangerous?.[`--${name}`];
  if (why) return { kind: "dangerous", name, why };
  if (spec.long?.includes(name)) return { kind: "flag", name };
  const arg = spec.longArgs?.[name];
  if (arg !== undefined) return { kind: "arg", name, arg };
  const opt = spec.longOptional?.[name];
  if (opt !== undefined) return { kind: "optional", name, arg: opt };
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
