/**
 * For lines that could not be parsed: a denied program named anywhere in the text still denies. Words are
 * split at every shell metacharacter and quote, backslashes removed, programs compared by base name: this
 * over-approximates on purpose (`echo rm` in a broken line denies), which only costs a refusal.
 *
 * Linear in the length of the line: one regular-expression pass finds the words that name a denied
 * program, and each is compared only with the rules for that program, over as many words as the longest
 * rule has (a 200 KB here-document takes about a millisecond). Past `MAX_CANDIDATES` words naming a
 * denied program the scan stops without a deny: the line is unparseable anyway, so it is asked about.
 */
import { literalWord, type Word } from "./model";
import type { CommandRule } from "./prefixRules";
import type { RuleSet } from "./ruleMatch";

const SEPARATOR_CLASS = "\\s;&|()<>`$\"'{}=,!";
const WORD = new RegExp(`[^${SEPARATOR_CLASS}]+`, "g");
const SEPARATOR = new RegExp(`[${SEPARATOR_CLASS}]`);
/** Words compared with the rules, at most. */
export const MAX_CANDIDATES = 4096;

/** Per rule set: a pattern for a word whose base name is one of the denied programs. */
const finders = new WeakMap<RuleSet, RegExp | undefined>();

function finder(deny: RuleSet): RegExp | undefined {
  if (finders.has(deny)) return finders.get(deny);
  const programs = deny.programs();
  // Globbed program names (`*sh`) could be any word: those rule sets take every word.
  const re =
    programs === undefined
      ? undefined
      : new RegExp(
          `(?<=^|[${SEPARATOR_CLASS}/])(?:${programs.map((p) => p.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")).join("|")})(?=[${SEPARATOR_CLASS}]|$)`,
          "gi",
        );
  finders.set(deny, re);
  return re;
}

export function lexicalDeny(line: string, deny: RuleSet): CommandRule | undefined {
  if (deny.empty) return undefined;
  const text = line.replace(/\\\n/g, "").replace(/\\/g, "");
  const width = deny.maxWords;
  const wordAt = (start: number): Word[] => {
    const argv: Word[] = [];
    WORD.lastIndex = start;
    for (let m = WORD.exec(text); m && argv.length < width; m = WORD.exec(text)) argv.push(literalWord(m[0]));
    return argv;
  };
  const find = finder(deny);
  if (find) {
    find.lastIndex = 0;
    let candidates = 0;
    for (let m = find.exec(text); m && candidates++ < MAX_CANDIDATES; m = find.exec(text)) {
      // The whole word holding the match (`/usr/bin/rm` for `rm`), then the words after it.
      let start = m.index;
      while (start > 0 && !SEPARATOR.test(text[start - 1]!)) start--;
      const argv = wordAt(start);
      const r = deny.match(argv, deny.key(argv[0]!.value));
      if (r.match === "yes") return r.rule;
    }
    return undefined;
  }
  WORD.lastIndex = 0;
  const starts: number[] = [];
  for (let m = WORD.exec(text); m && starts.length < MAX_CANDIDATES; m = WORD.exec(text)) starts.push(m.index);
  for (const start of starts) {
    const argv = wordAt(start);
    const r = deny.match(argv, deny.key(argv[0]!.value));
    if (r.match === "yes") return r.rule;
  }
  return undefined;
}
