/**
 * Incremental parser for tool-call arguments that arrive as JSON fragments (OpenAI
 * `tool_calls[].function.arguments` deltas, Anthropic `input_json_delta`).
 *
 * Invariants:
 * - Every input character is looked at a bounded number of times (string runs are found with native
 *   searches whose positions are remembered per chunk); a chunk never causes earlier input to be re-read.
 *   Strings grow by concatenation (V8 ropes), so 1 MB in 8,000 chunks costs O(n) in total.
 * - `value` is the live best-effort object at any point: complete values, plus the string still open
 *   (its text so far). Numbers and literals appear only once complete; an open container appears with
 *   what it holds so far.
 * - Malformed input throws `JsonArgumentsError` once and puts the parser in a terminal error state.
 * - The top-level value must be an object; empty input (some providers send "" for argument-less tools)
 *   ends as `{}`.
 */

export class JsonArgumentsError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = "JsonArgumentsError";
  }
}

/** Notified of top-level fields only: that is what the runtime streams to the person. */
export interface PartialJsonListener {
  /** Text appended to the string value of top-level `key` (decoded, never re-sent). */
  onStringDelta?(key: string, delta: string): void;
  /** Top-level `key` now holds its final value. */
  onFieldComplete?(key: string, value: unknown): void;
}

type Container = Record<string, unknown> | unknown[];

interface Frame {
  readonly container: Container;
  readonly isArray: boolean;
  /** object: expecting a key, a colon, a value, or a comma/close; array: a value or a comma/close. */
  state: "key" | "colon" | "value" | "comma" | "firstKey" | "firstValue";
  key: string;
}

const enum Mode {
  Between, // whitespace and structural characters
  String,
  Escape,
  Unicode,
  Literal,
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f]/;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const HEX = /^[0-9a-fA-F]$/;

function indexOrEnd(s: string, ch: string, from: number): number {
  const k = s.indexOf(ch, from);
  return k < 0 ? s.length : k;
}

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

export class PartialJsonParser {
  private readonly stack: Frame[] = [];
  private root: Record<string, unknown> | undefined;
  private done = false;
  private failure: JsonArgumentsError | undefined;
  private mode = Mode.Between;
  private pos = 0;
  /** The string being read, and whether it is an object key. */
  private str = "";
  private strIsKey = false;
  private pieces: string[] = [];
  private unicode = "";
  private literal = "";

  constructor(private readonly listener: PartialJsonListener = {}) {}

  /** Best-effort value so far. Live object: callers must not mutate it. */
  get value(): Readonly<Record<string, unknown>> {
    return this.root ?? {};
  }

  get complete(): boolean {
    return this.done;
  }

  get error(): JsonArgumentsError | undefined {
    return this.failure;
  }

  /** Characters consumed so far. */
  get length(): number {
    return this.pos;
  }

  feed(chunk: string): void {
    if (this.failure) throw this.failure;
    try {
      this.consume(chunk);
      this.commitString();
    } catch (e) {
      this.failure = e instanceof JsonArgumentsError ? e : new JsonArgumentsError(String(e), this.pos);
      throw this.failure;
    }
  }

  /** The stream ended: returns the complete object or throws (unterminated input is malformed). */
  end(): Record<string, unknown> {
    if (this.failure) throw this.failure;
    if (this.done) return this.root!;
    if (this.root === undefined && this.mode === Mode.Between) {
      // Only whitespace was received: an argument-less call.
      this.root = {};
      this.done = true;
      return this.root;
    }
    this.failure = new JsonArgumentsError(
      `the arguments ended early (unterminated ${this.describeOpen()}) at position ${this.pos}`,
      this.pos,
    );
    throw this.failure;
  }

  private describeOpen(): string {
    if (this.mode === Mode.String || this.mode === Mode.Escape || this.mode === Mode.Unicode) return "string";
    const top = this.stack[this.stack.length - 1];
    return top?.isArray ? "array" : "object";
  }

  private fail(message: string): never {
    throw new JsonArgumentsError(`${message} at position ${this.pos}`, this.pos);
  }

  private consume(chunk: string): void {
    const n = chunk.length;
    let i = 0;
    let nextQuote = -1;
    let nextBackslash = -1;
    while (i < n) {
      switch (this.mode) {
        case Mode.String: {
          // The longest run of plain characters, found with native searches. The next quote and backslash
          // positions are remembered for this chunk, so a chunk full of escapes is still searched once.
          if (nextQuote < i) nextQuote = indexOrEnd(chunk, '"', i);
          if (nextBackslash < i) nextBackslash = indexOrEnd(chunk, "\\", i);
          const j = Math.min(nextQuote, nextBackslash);
          if (j > i) {
            const run = chunk.slice(i, j);
            const bad = CONTROL.exec(run);
            if (bad) {
              this.pos += bad.index;
              this.fail("control character inside a string");
            }
            this.appendString(run);
            this.pos += j - i;
            i = j;
          }
          if (i < n) {
            const c = chunk.charCodeAt(i);
            i++;
            this.pos++;
            if (c === 0x22) this.closeString();
            else this.mode = Mode.Escape;
          }
          break;
        }
        case Mode.Escape: {
          const ch = chunk[i]!;
          i++;
          this.pos++;
          const simple = ESCAPES[ch];
          if (simple !== undefined) {
            this.appendString(simple);
            this.mode = Mode.String;
          } else if (ch === "u") {
            this.unicode = "";
            this.mode = Mode.Unicode;
          } else {
            this.fail(`invalid escape "\\${ch}"`);
          }
          break;
        }
        case Mode.Unicode: {
          const ch = chunk[i]!;
          if (!HEX.test(ch)) this.fail(`invalid \\u escape character "${ch}"`);
          i++;
          this.pos++;
          this.unicode += ch;
          if (this.unicode.length === 4) {
            this.appendString(String.fromCharCode(parseInt(this.unicode, 16)));
            this.mode = Mode.String;
          }
          break;
        }
        case Mode.Literal: {
          const c = chunk.charCodeAt(i);
          if (isLiteralChar(c)) {
            this.literal += chunk[i];
            i++;
            this.pos++;
          } else {
            this.closeLiteral();
          }
          break;
        }
        case Mode.Between: {
          const c = chunk.charCodeAt(i);
          if (isWs(c)) {
            i++;
            this.pos++;
            break;
          }
          this.structural(chunk[i]!);
          i++;
          this.pos++;
          break;
        }
      }
    }
  }

  private structural(ch: string): void {
    if (this.done) this.fail(`unexpected "${ch}" after the end of the arguments`);
    const top = this.stack[this.stack.length - 1];
    if (!top) {
      if (ch !== "{") this.fail(`the arguments must be a JSON object, found "${ch}"`);
      this.root = {};
      this.stack.push({ container: this.root, isArray: false, state: "firstKey", key: "" });
      return;
    }
    switch (top.state) {
      case "firstKey":
      case "key":
        if (ch === '"') {
          this.str = "";
          this.strIsKey = true;
          this.mode = Mode.String;
        } else if (ch === "}" && top.state === "firstKey") {
          this.closeContainer();
        } else {
          this.fail(`unexpected "${ch}" (expected a property name)`);
        }
        return;
      case "colon":
        if (ch !== ":") this.fail(`unexpected "${ch}" (expected ":")`);
        top.state = "value";
        return;
      case "comma":
        if (ch === ",") top.state = top.isArray ? "value" : "key";
        else if (ch === (top.isArray ? "]" : "}")) this.closeContainer();
        else this.fail(`unexpected "${ch}" (expected "," or "${top.isArray ? "]" : "}"}")`);
        return;
      case "firstValue":
        if (ch === "]") {
          this.closeContainer();
          return;
        }
        this.startValue(top, ch);
        return;
      case "value":
        this.startValue(top, ch);
        return;
    }
  }

  private startValue(top: Frame, ch: string): void {
    if (ch === '"') {
      this.str = "";
      this.strIsKey = false;
      this.mode = Mode.String;
      this.setInParent(top, "");
    } else if (ch === "{" || ch === "[") {
      const container: Container = ch === "{" ? {} : [];
      this.setInParent(top, container);
      this.stack.push({ container, isArray: ch === "[", state: ch === "{" ? "firstKey" : "firstValue", key: "" });
    } else if (isLiteralChar(ch.charCodeAt(0))) {
      this.literal = ch;
      this.mode = Mode.Literal;
    } else {
      this.fail(`unexpected "${ch}" (expected a value)`);
    }
  }

  /** Places (or replaces) the value being built in its parent. Arrays get a new slot once, when it starts. */
  private setInParent(top: Frame, v: unknown): void {
    if (top.isArray) {
      const arr = top.container as unknown[];
      if (top.state !== "comma") arr.push(v);
      else arr[arr.length - 1] = v;
    } else {
      setOwn(top.container as Record<string, unknown>, top.key, v);
    }
    top.state = "comma";
  }

  /** Decoded text of the current string is gathered per chunk and committed once (see `commitString`). */
  private appendString(s: string): void {
    this.pieces.push(s);
  }

  /** Adds this chunk's decoded text to the open string: one concatenation and one listener call per chunk. */
  private commitString(): void {
    if (this.pieces.length === 0) return;
    const s = this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join("");
    this.pieces = [];
    this.str += s;
    if (this.strIsKey) return;
    const top = this.stack[this.stack.length - 1]!;
    if (top.isArray) {
      const arr = top.container as unknown[];
      arr[arr.length - 1] = this.str;
    } else {
      setOwn(top.container as Record<string, unknown>, top.key, this.str);
      if (this.stack.length === 1) this.listener.onStringDelta?.(top.key, s);
    }
  }

  private closeString(): void {
    this.commitString();
    this.mode = Mode.Between;
    const top = this.stack[this.stack.length - 1]!;
    if (this.strIsKey) {
      top.key = this.str;
      top.state = "colon";
      this.str = "";
      return;
    }
    const value = this.str;
    this.str = "";
    if (this.stack.length === 1 && !top.isArray) this.listener.onFieldComplete?.(top.key, value);
  }

  private closeLiteral(): void {
    this.mode = Mode.Between;
    const text = this.literal;
    this.literal = "";
    let v: unknown;
    if (text === "true") v = true;
    else if (text === "false") v = false;
    else if (text === "null") v = null;
    else if (NUMBER.test(text)) v = Number(text);
    else this.fail(`invalid value "${text.slice(0, 20)}"`);
    const top = this.stack[this.stack.length - 1]!;
    this.setInParent(top, v);
    if (this.stack.length === 1 && !top.isArray) this.listener.onFieldComplete?.(top.key, v);
  }

  private closeContainer(): void {
    const closed = this.stack.pop()!;
    const parent = this.stack[this.stack.length - 1];
    if (!parent) {
      this.done = true;
      return;
    }
    if (this.stack.length === 1 && !parent.isArray) this.listener.onFieldComplete?.(parent.key, closed.container);
  }
}

/** Like JSON.parse: a "__proto__" key is an own property, never the object's prototype. */
function setOwn(obj: Record<string, unknown>, key: string, v: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(obj, key, { value: v, writable: true, enumerable: true, configurable: true });
  else obj[key] = v;
}

const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

function isLiteralChar(c: number): boolean {
  // digits, - + . e E, and the letters of true/false/null
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || (c >= 0x61 && c <= 0x7a) || c === 0x45;
}

/** Parses a complete arguments string in one go (same rules as streaming). */
export function parseToolArguments(text: string): Record<string, unknown> {
  const p = new PartialJsonParser();
  p.feed(text);
  return p.end();
}
