/**
 * For lines that could not be parsed: a denied program named anywhere in the text still denies. Words are
 * split at every shell metacharacter and quote, backslashes removed, programs compared by base name: this
 * over-approximates on purpose (`echo rm` in a broken line denies), which only costs a refusal.
 */
import { literalWord } from "./model";
import type { CommandRule } from "./prefixRules";
import type { RuleSet } from "./ruleMatch";

export function lexicalDeny(line: string, deny: RuleSet): CommandRule | undefined {
  if (deny.empty) return undefined;
  const words = line
    .replace(/\\\n/g, "")
    .replace(/\\/g, "")
    .split(/[\s;&|()<>`$"'{}=,]+/)
    .filter((w) => w.length > 0)
    .map(literalWord);
  for (let i = 0; i < words.length; i++) {
    const argv = words.slice(i);
    const m = deny.match(argv, deny.key(argv[0]!.value));
    if (m.match === "yes") return m.rule;
  }
  return undefined;
}
