/**
 * settings.json and its siblings are JSON with comments and trailing commas (JSONC). They are read with
 * `jsonc-parser`, the parser VS Code itself uses, so a file means here exactly what it means to the editor:
 * comments and trailing commas outside strings are allowed, string contents are never touched, and every
 * other syntax error is an error (never a partial value).
 */
// The ESM build: the package's UMD `main` hides its requires from bundlers, so a bundle of it fails at run time.
import { parse, printParseErrorCode, stripComments, type ParseError } from "jsonc-parser/lib/esm/main.js";

export class JsoncError extends SyntaxError {}

/** Line and column (1-based) of an offset, for messages a person can act on. */
function position(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const col = offset - before.lastIndexOf("\n");
  return `line ${line}, column ${col}`;
}

/** Parses JSONC text. An empty (or comment-only) text is `undefined`; any syntax error throws `JsoncError`. */
export function parseJsonc(text: string): unknown {
  if (stripComments(text).trim() === "") return undefined;
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) throw new JsoncError(`${printParseErrorCode(first.error)} at ${position(text, first.offset)}`);
  return value;
}
