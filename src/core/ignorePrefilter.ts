/**
 * A sound pre-filter for gitignore patterns: if it says "no", no positive pattern matches the path or any of
 * its parent directories, so the path cannot be ignored (negations only ever un-ignore). If it says "maybe",
 * the exact `ignore` matcher decides. Anything unusual widens the filter to "maybe".
 */
function segmentSource(glob: string): string | undefined {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") return undefined; // `**` inside a segment: let the exact matcher decide
      out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) return undefined;
      out += "[^/]";
      i = end;
    } else out += /[.+^$(){}|\\]/.test(c) ? "\\" + c : c;
  }
  return out;
}

function patternSource(line: string): string | undefined {
  let p = line.replace(/\s+$/, "");
  if (p === "" || p.startsWith("#") || p.startsWith("!")) return ""; // contributes nothing positive
  if (p.includes("\\")) return undefined;
  if (p.endsWith("/")) p = p.slice(0, -1); // directory-only: widening to files too is sound
  const anchored = p.includes("/");
  const parts = p.replace(/^\//, "").split("/");
  const segs: string[] = [];
  for (const part of parts) {
    if (part === "**") segs.push("(?:[^/]+/)*");
    else {
      const s = segmentSource(part);
      if (s === undefined) return undefined;
      segs.push(s + "/");
    }
  }
  // Join the segments: each non-** segment carries its own trailing slash; strip the final one.
  let body = segs.join("");
  body = body.endsWith("/") ? body.slice(0, -1) : body.endsWith("(?:[^/]+/)*") ? body + "[^/]*" : body;
  // A match may be the path itself or any parent directory of it.
  return anchored ? `^${body}(?:/|$)` : `(?:^|/)${body}(?:/|$)`;
}

/** Returns undefined when the patterns cannot be pre-filtered (the exact matcher then always runs). */
export function ignorePrefilter(text: string): RegExp | undefined {
  const sources: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const s = patternSource(line);
    if (s === undefined) return undefined;
    if (s !== "") sources.push(`(?:${s})`);
  }
  return sources.length === 0 ? /(?!)/ : new RegExp(sources.join("|"), "i");
}
