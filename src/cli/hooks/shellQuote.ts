/**
 * Words quoted for bash, so that a rewritten command line runs exactly the argv it was built from.
 *
 * Invariant: `bash -c "$(quoteArgv(argv))"` runs `argv` word for word, for every word without a NUL byte
 * (bash strings cannot hold one; callers refuse such a line). Each word is single-quoted and every `'` is
 * written `'\''`: inside single quotes bash expands nothing — no `$`, backquote, backslash, history `!` (off
 * for `-c`) or newline is special — so no content can end the quoting or start a command.
 */

/** Whether bash can carry this word at all. */
export function quotable(word: string): boolean {
  return !word.includes("\0");
}

export function quoteWord(word: string): string {
  if (!quotable(word)) throw new Error("a NUL byte cannot be passed to bash");
  // Plain words stay readable (paths, flags); everything else is single-quoted.
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function quoteArgv(argv: readonly string[]): string {
  return argv.map(quoteWord).join(" ");
}
