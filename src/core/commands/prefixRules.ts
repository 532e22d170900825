/**
 * Command rules are argv prefixes on word boundaries: `git log` matches `git log -5` but not `git logx`.
 * A word may hold `*` globs (`npm run *` matches `npm run build --watch`; `*` alone is any one word).
 * Matching is on already-unquoted argv, so the rule never sees shell syntax.
 */

export interface CommandRule {
  readonly source: string;
  readonly words: readonly string[];
}

const globCache = new Map<string, RegExp>();

function wordMatcher(word: string): RegExp {
  let re = globCache.get(word);
  if (!re) {
    const body = word
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*");
    re = new RegExp(`^${body}$`, "s");
    globCache.set(word, re);
  }
  return re;
}

/** Splits a rule into words. Claude-style `npm run:*` is accepted as `npm run`. Blank rules are dropped. */
export function parseCommandRules(rules: readonly string[]): CommandRule[] {
  const out: CommandRule[] = [];
  for (const source of rules) {
    const trimmed = source.trim().replace(/:\*$/, "");
    const words = trimmed.split(/\s+/).filter((w) => w.length > 0);
    if (words.length > 0) out.push({ source, words });
  }
  return out;
}

export function matchesRule(argv: readonly string[], rule: CommandRule): boolean {
  if (argv.length < rule.words.length) return false;
  for (let i = 0; i < rule.words.length; i++) {
    const w = rule.words[i]!;
    const a = argv[i]!;
    if (w.includes("*") ? !wordMatcher(w).test(a) : w !== a) return false;
  }
  return true;
}

export function firstMatch(argv: readonly string[], rules: readonly CommandRule[]): CommandRule | undefined {
  return rules.find((r) => matchesRule(argv, r));
}

/** One rule word against one argv word (`*` globs as in rules). Exported for analyzers matching word by word. */
export function matchesWord(pattern: string, word: string): boolean {
  return pattern.includes("*") ? wordMatcher(pattern).test(word) : pattern === word;
}
