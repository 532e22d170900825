/**
 * Makes invisible and control characters visible, so an approval shows exactly what will run: a zero-width
 * space, a bidi override, a carriage return or a long run of spaces cannot hide a second command.
 *
 * The output is a list of segments; markers carry a spoken label for screen readers and a tooltip.
 */

export type Segment =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "marker"; readonly text: string; readonly label: string };

export interface VisibleOptions {
  /** Mark the end of each line (a newline separates commands in a shell). */
  readonly markNewlines?: boolean;
  /** Highlight non-ASCII letters (look-alikes such as Cyrillic `а` in a program name). */
  readonly markNonAscii?: boolean;
}

/** Runs of this many plain spaces or more collapse into one marker ("⟨40 spaces⟩"). */
export const SPACE_RUN = 8;

const NAMES: Readonly<Record<number, string>> = {
  0x00: "null",
  0x08: "backspace",
  0x09: "tab",
  0x0b: "vertical tab",
  0x0c: "form feed",
  0x0d: "carriage return",
  0x1b: "escape",
  0x7f: "delete",
  0x85: "next line",
  0xa0: "no-break space",
  0xad: "soft hyphen",
  0x061c: "Arabic letter mark",
  0x180e: "Mongolian vowel separator",
  0x200b: "zero width space",
  0x200c: "zero width non-joiner",
  0x200d: "zero width joiner",
  0x200e: "left-to-right mark",
  0x200f: "right-to-left mark",
  0x2028: "line separator",
  0x2029: "paragraph separator",
  0x202a: "left-to-right embedding",
  0x202b: "right-to-left embedding",
  0x202c: "pop directional formatting",
  0x202d: "left-to-right override",
  0x202e: "right-to-left override",
  0x2060: "word joiner",
  0x2066: "left-to-right isolate",
  0x2067: "right-to-left isolate",
  0x2068: "first strong isolate",
  0x2069: "pop directional isolate",
  0x3000: "ideographic space",
  0xfeff: "zero width no-break space",
};

const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;

/** Invisible, formatting or space-like code points that are not a plain space, tab or newline. */
export function isInvisible(cp: number): boolean {
  return (
    (cp >= 0x80 && cp <= 0xa0) ||
    cp === 0xad ||
    cp === 0x034f ||
    cp === 0x061c ||
    cp === 0x115f ||
    cp === 0x1160 ||
    cp === 0x1680 ||
    cp === 0x17b4 ||
    cp === 0x17b5 ||
    (cp >= 0x180b && cp <= 0x180f) ||
    (cp >= 0x2000 && cp <= 0x200f) ||
    (cp >= 0x2028 && cp <= 0x202f) ||
    (cp >= 0x205f && cp <= 0x206f) ||
    cp === 0x3000 ||
    cp === 0x3164 ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    cp === 0xfeff ||
    cp === 0xffa0 ||
    (cp >= 0xfff9 && cp <= 0xfffb) ||
    (cp >= 0x1d173 && cp <= 0x1d17a) ||
    (cp >= 0xe0000 && cp <= 0xe0fff)
  );
}

/**
 * Marker text uses ASCII abbreviations in brackets. Unicode's control pictures (␍ for \r) would be shorter,
 * but many editor fonts lack them and they render as an empty box; "⟨CR⟩" reads the same everywhere.
 */
const ABBREV: Readonly<Record<number, string>> = {
  0x00: "NUL",
  0x08: "BS",
  0x09: "TAB",
  0x0b: "VT",
  0x0c: "FF",
  0x0d: "CR",
  0x1b: "ESC",
  0x7f: "DEL",
};

function marker(cp: number): Segment {
  const name = NAMES[cp];
  const text = `⟨${ABBREV[cp] ?? hex(cp)}⟩`;
  return { kind: "marker", text, label: name ? `${name} (${hex(cp)})` : `invisible character ${hex(cp)}` };
}

export function visibleSegments(input: string, options: VisibleOptions = {}): Segment[] {
  const out: Segment[] = [];
  let plain = "";
  const flush = () => {
    if (plain) out.push({ kind: "text", text: plain });
    plain = "";
  };
  const chars = Array.from(input); // by code point, so astral tag characters are one marker each
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    const cp = ch.codePointAt(0)!;
    if (cp === 0x0a) {
      if (options.markNewlines) {
        flush();
        out.push({ kind: "marker", text: "⏎", label: "line break (U+000A): a new command" });
      }
      plain += "\n";
    } else if (cp === 0x20) {
      let j = i;
      while (j < chars.length && chars[j] === " ") j++;
      const run = j - i;
      if (run >= SPACE_RUN) {
        flush();
        out.push({ kind: "marker", text: `⟨${run} spaces⟩`, label: `${run} spaces` });
      } else {
        plain += " ".repeat(run);
      }
      i = j - 1;
    } else if (cp < 0x20 || cp === 0x7f || isInvisible(cp)) {
      flush();
      out.push(marker(cp));
    } else if (options.markNonAscii && cp > 0x7e && /\p{L}/u.test(ch)) {
      flush();
      out.push({ kind: "marker", text: ch, label: `non-ASCII letter ${ch} (${hex(cp)})` });
    } else {
      plain += ch;
    }
  }
  flush();
  return out;
}

/** True when the text holds anything `visibleSegments` would mark (the card then says so in words). */
export function hasHiddenCharacters(input: string): boolean {
  return visibleSegments(input).some((s) => s.kind === "marker");
}
