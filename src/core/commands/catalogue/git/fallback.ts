/**
 * Subcommands without a grammar of their own (`notes`, `bundle`, `format-patch`, `submodule`, plumbing, one
 * Toolgate does not know): never vouched for, so only what binds in every mode is read from their words. Every
 * long option is read against the options harmful in any subcommand (grammars.ts `HARMFUL_ONLY`), by any
 * prefix, since git's parse-options accepts abbreviations; a word computed at run time could be one of them.
 */
import { type Word, UNKNOWN } from "../../model";
import { runsCode, type Effects } from "../effects";
import { sliceWord } from "../options";
import { HARMFUL_ONLY } from "./grammars";
import { NO_WORK_TREE_WRITES, plainPath, TEXT_VALUE_OPTIONS } from "./writers";

/** Harmless options whose names a harmful one starts with, or that start a harmful one's name. */
const HARMLESS_EXACT = new Set([
  "output-indicator-new",
  "output-indicator-old",
  "output-indicator-context",
  "output-directory",
  "no-ext-diff",
  "no-textconv",
  "text",
  "no-filters",
]);

/** Every harmful long option as `[name, option]`. */
const HARMFUL_LONG = [...Object.keys(HARMFUL_ONLY.runs ?? {}), ...Object.keys(HARMFUL_ONLY.dangerous ?? {})]
  .filter((o) => o.startsWith("--"))
  .map((o) => o.slice(2));

/** Reports each harmful option (or spelling of one) in `args`, and a computed word that could be one. */
export function scanHarmful(name: string, args: readonly Word[], fx: Effects, base: Word | undefined): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.literal && a.value === "--") return;
    if (!a.literal && (a.value.startsWith(UNKNOWN) || a.value.startsWith("-") || a.splits)) {
      runsCode(fx, `\`git ${name}\` gets an argument computed at run time that could be an option like \`--ext-diff\``);
      continue;
    }
    if (!a.value.startsWith("--")) continue;
    const eq = a.value.indexOf("=");
    const written = a.value.slice(2, eq >= 0 ? eq : undefined);
    if (written.length < 2 || HARMLESS_EXACT.has(written)) continue;
    const full = HARMFUL_LONG.find((n) => n.startsWith(written));
    if (!full) continue;
    const option = `--${full}`;
    const runs = HARMFUL_ONLY.runs?.[option];
    if (runs) runsCode(fx, `\`git ${name} ${option}\` ${runs}`);
    else fx.dangerous(`\`git ${name} ${option}\` ${HARMFUL_ONLY.dangerous?.[option] ?? "is harmful"}`);
    // `--output` writes the file it names: a file effect, so protected paths and the boundary hold for it.
    if (HARMFUL_ONLY.longArgs?.[full] === "write") {
      const target = eq >= 0 ? sliceWord(a, eq + 1) : args[++i];
      if (target) fx.write(target, base);
    }
  }
}

/** Option words whose value is the next word, in the subcommands read here. */
const VALUE_WORDS = new Set(["-m", "--message", "-F", "--file", "-b", "-B", "-c", "-C", "--reason"]);

/** The words that are not options, nor the value of one of `VALUE_WORDS` (everything after `--`). */
export function looseWords(args: readonly Word[]): Word[] {
  const out: Word[] = [];
  let dashdash = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (dashdash || !a.value.startsWith("-")) out.push(a);
    else if (a.literal && a.value === "--") dashdash = true;
    else if (VALUE_WORDS.has(a.value)) i++;
  }
  return out;
}

/**
 * The files such a subcommand's words name: each loose word may be touched (only what binds in every mode
 * counts), a message file (`-F F`, `--file=F`) is read into what it records, and a word or option value that
 * is plainly a path (`bundle create /tmp/x`, `format-patch -o /tmp/p`, `read-tree --index-output=/tmp/i`) is
 * read and written through the path gate.
 */
export function looseFiles(name: string, args: readonly Word[], fx: Effects, base: Word | undefined): void {
  const writes = !NO_WORK_TREE_WRITES.has(name);
  for (const p of looseWords(args)) fx.mayTouch(p, base, writes && !p.value.includes(":"));
  const touch = (w: Word): void => {
    if (writes) fx.write(w, base);
    fx.read(w, "content", base);
  };
  const read = (w: Word | undefined): void => {
    if (w && !(w.literal && w.value === "-")) fx.read(w, "content", base);
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const v = a.value;
    if (!a.literal) continue;
    if (v === "-F" || v === "--file") read(args[++i]);
    else if (v.startsWith("--file=")) read(sliceWord(a, 7));
    else if (/^-F./.test(v)) read(sliceWord(a, 2));
    else if (TEXT_VALUE_OPTIONS.has(v)) i++;
    else if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      if (eq > 0 && !TEXT_VALUE_OPTIONS.has(v.slice(0, eq)) && plainPath(v.slice(eq + 1))) touch(sliceWord(a, eq + 1));
    } else if (/^-[A-Za-z]./.test(v) && plainPath(v.slice(2))) touch(sliceWord(a, 2));
    else if (plainPath(v)) touch(a);
  }
}
