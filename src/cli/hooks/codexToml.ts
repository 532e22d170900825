/**
 * Codex's hook lives in `config.toml`, which Toolgate does not parse or rewrite: the hook is one marked block
 * of text, appended once and replaced in place on every later install, so nothing outside it ever changes.
 *
 * Invariants: exactly one BEGIN line followed by one END line is a block we own; a BEGIN without its END (or
 * two blocks) is an error and the file is left alone; the block's tables are arrays of tables
 * (`[[hooks.PreToolUse]]`), which TOML allows after any other table, so appending cannot change what the
 * rest of the file means.
 */
import { ConfigEditError } from "./jsoncHooks";

export const CODEX_BEGIN =
  "# >>> toolgate hook (written by `toolgate hook install codex`; replaced on every install) >>>";
export const CODEX_END = "# <<< toolgate hook <<<";

/** A TOML basic string: JSON's escapes are all valid TOML escapes. */
function tomlString(s: string): string {
  return JSON.stringify(s);
}

export function codexBlock(command: string, timeoutSeconds: number): string {
  return [
    CODEX_BEGIN,
    "[[hooks.PreToolUse]]",
    "[[hooks.PreToolUse.hooks]]",
    'type = "command"',
    `command = ${tomlString(command)}`,
    `timeout = ${timeoutSeconds}`,
    CODEX_END,
  ].join("\n");
}

interface Span {
  readonly start: number;
  readonly end: number;
}

/** Line indexes of our block, or undefined; throws when the markers are unbalanced. */
function findBlock(lines: readonly string[], file: string): Span | undefined {
  const begins = lines.flatMap((l, i) => (l.trim() === CODEX_BEGIN ? [i] : []));
  const ends = lines.flatMap((l, i) => (l.trim() === CODEX_END ? [i] : []));
  if (begins.length === 0 && ends.length === 0) return undefined;
  const [b] = begins;
  const [e] = ends;
  if (begins.length !== 1 || ends.length !== 1 || b === undefined || e === undefined || e < b)
    throw new ConfigEditError(`${file}: the Toolgate block's markers are unbalanced, so the file is left alone`);
  return { start: b, end: e };
}

export function mergeCodexBlock(text: string, file: string, block: string): string {
  const lines = text.split("\n");
  const span = findBlock(lines, file);
  if (span !== undefined) {
    const next = [...lines.slice(0, span.start), ...block.split("\n"), ...lines.slice(span.end + 1)].join("\n");
    return next;
  }
  if (text.trim() === "") return block + "\n";
  return (text.endsWith("\n") ? text : text + "\n") + "\n" + block + "\n";
}

/** The block's text (for doctor), or undefined when there is none. */
export function codexBlockText(text: string, file: string): string | undefined {
  const lines = text.split("\n");
  const span = findBlock(lines, file);
  return span === undefined ? undefined : lines.slice(span.start, span.end + 1).join("\n");
}

/** The text outside our block (doctor looks there for an older, unmarked Toolgate hook and feature switches). */
export function outsideCodexBlock(text: string, file: string): string {
  const lines = text.split("\n");
  const span = findBlock(lines, file);
  return span === undefined ? text : [...lines.slice(0, span.start), ...lines.slice(span.end + 1)].join("\n");
}
