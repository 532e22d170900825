/**
 * Matching argv-prefix rules against words that may be partly unknown. A word computed at run time could
 * be anything, so against a rule word it is a "maybe": enough to refuse auto-approval, never enough to
 * deny. Program names in deny and ask rules match by base name and case-insensitively (`/bin/RM` is `rm`
 * on a case-insensitive file system); allow rules match the program as the analyzer normalised it.
 */
import { matchesWord, type CommandRule } from "./prefixRules";
import type { Word } from "./model";

export type Match = "yes" | "maybe" | "no";

export function baseName(program: string): string {
  const slash = program.lastIndexOf("/");
  return slash >= 0 ? program.slice(slash + 1) : program;
}

/** `program` is compared by the caller's convention; the other words literally (with `*` globs). */
export function matchRule(argv: readonly Word[], rule: CommandRule, programMatches: (ruleWord: string) => boolean): Match {
  if (argv.length === 0 || !programMatches(rule.words[0]!)) return "no";
  let result: Match = "yes";
  for (let i = 1; i < rule.words.length; i++) {
    const w = argv[i];
    // Missing words: only an earlier unquoted expansion (which may become several words) could supply them.
    if (!w) return result === "maybe" && argv.some((a) => a.splits) ? "maybe" : "no";
    if (!w.literal) {
      // An unquoted expansion may also shift the words after it.
      if (w.splits) return "maybe";
      result = "maybe";
      continue;
    }
    if (!matchesWord(rule.words[i]!, w.value)) return "no";
  }
  return result;
}

/** The strongest match among `rules` ("yes" beats "maybe"), with the rule. */
export function bestMatch(argv: readonly Word[], rules: readonly CommandRule[], programMatches: (ruleWord: string) => boolean): { match: Match; rule?: CommandRule } {
  let maybe: CommandRule | undefined;
  for (const rule of rules) {
    const m = matchRule(argv, rule, programMatches);
    if (m === "yes") return { match: "yes", rule };
    if (m === "maybe") maybe ??= rule;
  }
  return maybe ? { match: "maybe", rule: maybe } : { match: "no" };
}

/** Deny/ask convention: base names, case-insensitive, globs allowed. */
export function looseProgram(program: string): (ruleWord: string) => boolean {
  const base = baseName(program).toLowerCase();
  return (ruleWord) => matchesWord(baseName(ruleWord).toLowerCase(), base);
}

/** Allow convention: exactly the normalised program (globs allowed). */
export function exactProgram(program: string): (ruleWord: string) => boolean {
  return (ruleWord) => matchesWord(ruleWord, program);
}
