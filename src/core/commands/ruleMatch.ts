/**
 * Matching argv-prefix rules against words that may be partly unknown. A word computed at run time could
 * be anything, so against a rule word it is a "maybe": enough to refuse auto-approval, never enough to
 * deny. Program names in deny and ask rules match by base name and case-insensitively (`/bin/RM` is `rm`
 * on a case-insensitive file system); allow rules match the program as the analyzer normalised it.
 * Rules are indexed by program, so a decision looks only at the rules for its programs.
 */
import { matchesWord, type CommandRule } from "./prefixRules";
import type { Word } from "./model";

export type Match = "yes" | "maybe" | "no";

export interface RuleMatch {
  readonly match: Match;
  readonly rule?: CommandRule;
}

const NO: RuleMatch = { match: "no" };

export function baseName(program: string): string {
  const slash = program.lastIndexOf("/");
  return slash >= 0 ? program.slice(slash + 1) : program;
}

/** Words after the program: literal words compare (with `*` globs); unknown words are a "maybe". */
function matchTail(argv: readonly Word[], rule: CommandRule): Match {
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

export class RuleSet {
  private readonly byProgram = new Map<string, CommandRule[]>();
  private readonly globbed: { rule: CommandRule; program: string }[] = [];
  readonly empty: boolean;
  /** Words in the longest rule: a match never looks further into argv. */
  readonly maxWords: number;

  /** `loose`: programs by lower-case base name (deny, ask); otherwise exactly (allow). */
  constructor(
    rules: readonly CommandRule[],
    private readonly loose: boolean,
  ) {
    for (const rule of rules) {
      const program = this.key(rule.words[0]!);
      if (program.includes("*")) this.globbed.push({ rule, program });
      else {
        const list = this.byProgram.get(program);
        if (list) list.push(rule);
        else this.byProgram.set(program, [rule]);
      }
    }
    this.empty = rules.length === 0;
    this.maxWords = rules.reduce((n, r) => Math.max(n, r.words.length), 1);
  }

  /** The programs (as `key` gives them) some rule names; undefined when a rule's program is a glob. */
  programs(): string[] | undefined {
    return this.globbed.length > 0 ? undefined : [...this.byProgram.keys()];
  }

  /** The program as this set compares it. */
  key(program: string): string {
    return this.loose ? baseName(program).toLowerCase() : program;
  }

  /** The strongest match ("yes" beats "maybe"); `program` must be `key(argv[0])`. */
  match(argv: readonly Word[], program: string): RuleMatch {
    if (this.empty || argv.length === 0) return NO;
    // The longest matching rule is reported: it is the one that can license a nested command (`sudo apt`).
    let maybe: CommandRule | undefined;
    let yes: CommandRule | undefined;
    const consider = (rule: CommandRule): void => {
      const m = matchTail(argv, rule);
      if (m === "yes" && (!yes || rule.words.length > yes.words.length)) yes = rule;
      if (m === "maybe") maybe ??= rule;
    };
    for (const rule of this.byProgram.get(program) ?? []) consider(rule);
    for (const g of this.globbed) if (matchesWord(g.program, program)) consider(g.rule);
    if (yes) return { match: "yes", rule: yes };
    return maybe ? { match: "maybe", rule: maybe } : NO;
  }
}
