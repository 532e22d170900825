import * as nodePath from "node:path";

/**
 * Which local files an `access_mcp_resource` URI may make a server read, so that the gate can judge them as
 * `read_file` paths (ignore file, Read rules, the workspace boundary). The server does the read, not us, and
 * servers read URIs in different ways: one built on `new URL` + `fileURLToPath` (the SDK's template matcher
 * parses with WHATWG URL first) normalises `..` lexically and turns `file:.env` into `/.env`; a hand-rolled one
 * strips `file:` / `file://` and percent-decodes, so `file:.env` is `.env` in its working directory and `..`
 * follows links as the kernel does. We return every reading we know of; the gate judges each one, and when they
 * lead to different files it cannot know which one will be read, so a person decides.
 *
 * Schemes: only `file:` is known to name local files. `@modelcontextprotocol/server-filesystem` reads
 * `file://{path}` (its other resource, `filesystem://allowed-directories`, is a listing, not a file) and
 * `server-everything` serves `demo://…` from memory. Other schemes name what their server says they name, so
 * they stay under `useMcp` alone, as DESIGN step 5 says. A URI with no scheme at all is read as a path: a
 * server that takes one can only mean a file by it.
 */

export type ResourceFiles =
  /** The URI names no local file (a scheme other than `file:`). */
  | { readonly kind: "none" }
  /** The spellings to resolve as path parameters (relative ones against the workspace base). */
  | { readonly kind: "files"; readonly paths: readonly string[]; readonly host?: string }
  /** A `file:` URI we cannot read with certainty: never allowed without a person. */
  | { readonly kind: "unparseable"; readonly reason: string };

/** A scheme needs two characters or more, so `C:\x` (a Windows drive) is a path, not a URI. */
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]+):/;
const FILE_SCHEMES: ReadonlySet<string> = new Set(["file"]);
/** Control characters: WHATWG URL strips or rejects some and keeps others, so what is read is unknowable. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
/** An encoded `/` or `\`: Node refuses it in a file URL, a naive decoder turns it into a separator. */
const ENCODED_SEPARATOR = /%(?:2f|5c)/i;

const unparseable = (reason: string): ResourceFiles => ({ kind: "unparseable", reason });

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** `/C:/x` is `C:/x` where drive letters exist. */
function platformPath(p: string, windows: boolean): string {
  return windows && /^\/[A-Za-z]:/.test(p) ? p.slice(1) : p;
}

export function resourceFiles(uri: string, windows: boolean = nodePath.sep === "\\"): ResourceFiles {
  if (CONTROL.test(uri)) return unparseable("the resource URI contains control characters");
  const scheme = SCHEME.exec(uri)?.[1];
  if (scheme === undefined) return { kind: "files", paths: [uri] };
  if (!FILE_SCHEMES.has(scheme.toLowerCase())) return { kind: "none" };
  if (ENCODED_SEPARATOR.test(uri)) return unparseable("the file URI contains an encoded `/` or `\\`");
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return unparseable("the file URI is not a valid URL");
  }
  const whatwg = decode(url.pathname);
  if (whatwg === undefined) return unparseable("the file URI has a malformed percent-escape");
  // The text after `file:`, read by hand: `//authority` dropped when it is empty or localhost, kept as the first
  // segment of a relative path otherwise (`file://docs/a.md` is `docs/a.md` to such servers).
  let rest = uri.slice(scheme.length + 1);
  let host: string | undefined;
  if (rest.startsWith("//")) {
    const end = rest.indexOf("/", 2);
    const authority = end < 0 ? rest.slice(2) : rest.slice(2, end);
    const after = end < 0 ? "" : rest.slice(end);
    if (authority === "" || authority.toLowerCase() === "localhost") rest = after;
    else {
      host = url.hostname || authority;
      rest = authority + after;
    }
  }
  const naive = decode(rest);
  if (naive === undefined) return unparseable("the file URI has a malformed percent-escape");
  const paths = new Set<string>();
  if (host === undefined) paths.add(platformPath(whatwg, windows));
  else {
    // A host: UNC on Windows (`\\host\share`), a relative path to a hand-rolled server, refused by Node on POSIX.
    paths.add(`//${host}${whatwg}`);
  }
  paths.add(platformPath(naive, windows));
  // A hand-rolled server may keep `?…` / `#…` out of the name or in it.
  const bare = naive.replace(/[?#].*$/s, "");
  if (bare !== "") paths.add(platformPath(bare, windows));
  for (const p of paths) if (p.trim() === "") return unparseable("the file URI names no file");
  return { kind: "files", paths: [...paths], ...(host !== undefined ? { host } : {}) };
}
