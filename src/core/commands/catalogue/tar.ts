/**
 * tar: only listing (`-t`/`--list`) is read-only. Options that run programs (`--to-command`,
 * `--checkpoint-action`, `--use-compress-program`/`-I`, `--info-script`/`-F`, `--rsh-command`,
 * `--rmt-command`) are dangerous, and so is an archive named `host:file` (opened through a remote shell)
 * unless `--force-local`. Old-style bundled options (`tar tvf x.tar`) are read like `-t -v -f x.tar`.
 */
import { literalWord, UNKNOWN, unknownWord, type Word } from "../model";
import type { ProgramCheck } from "./effects";
import { runsCode } from "./effects";
import { longName, sliceWord } from "./options";

const SHORT_ARGS = new Set(["f", "C", "T", "X", "b", "g", "H", "K", "L", "N", "V", "I", "F"]);
/** Long names tar takes (an abbreviation of exactly one of them counts as it); any other is dangerous. */
const ALL_LONG = (): readonly string[] => [...Object.keys(LONG_MODES), ...LONG_WITH_VALUE];
const SHORT_FLAGS = new Set([
  "t",
  "v",
  "z",
  "j",
  "J",
  "Z",
  "a",
  "O",
  "k",
  "m",
  "p",
  "s",
  "S",
  "h",
  "P",
  "i",
  "B",
  "G",
  "M",
  "W",
  "U",
  "w",
  "l",
  "o",
  "x",
  "c",
  "r",
  "u",
  "A",
  "d",
]);
const MODES: Record<string, string> = {
  t: "list",
  x: "extract",
  c: "create",
  r: "append",
  u: "update",
  A: "catenate",
  d: "diff",
};
const LONG_MODES: Record<string, string> = {
  list: "list",
  extract: "extract",
  get: "extract",
  create: "create",
  append: "append",
  update: "update",
  catenate: "catenate",
  concatenate: "catenate",
  diff: "diff",
  compare: "diff",
  delete: "delete",
};
const DANGEROUS_LONG: Record<string, string> = {
  "to-command": "runs a command for every file",
  "checkpoint-action": "can run a command at checkpoints",
  "use-compress-program": "runs a compression program",
  "info-script": "runs a script at the end of each volume",
  "new-volume-script": "runs a script at the end of each volume",
  "rsh-command": "runs a remote shell program",
  "rmt-command": "runs a remote tape program",
  "index-file": "writes its listing to a file",
  "volno-file": "writes the volume number to a file",
  "listed-incremental": "reads and writes a snapshot file",
  "remove-files": "deletes the files it archives",
};
/** The long options above that start another program. */
const RUNS_CODE = new Set([
  "to-command",
  "checkpoint-action",
  "use-compress-program",
  "info-script",
  "new-volume-script",
  "rsh-command",
  "rmt-command",
]);
const LONG_WITH_VALUE = new Set([
  "file",
  "directory",
  "files-from",
  "exclude-from",
  "exclude",
  "blocking-factor",
  "format",
  "label",
  "owner",
  "group",
  "mode",
  "mtime",
  "newer",
  "newer-mtime",
  "after-date",
  "strip-components",
  "transform",
  "xform",
  "wildcards",
  "record-size",
  "tape-length",
  "occurrence",
  "sort",
  "exclude-vcs-ignores",
  "numeric-owner",
  "anchored",
  "no-anchored",
  "ignore-case",
  "no-ignore-case",
  "wildcards-match-slash",
  "no-wildcards-match-slash",
  "quoting-style",
  "quote-chars",
  "no-quote-chars",
  "show-transformed-names",
  "totals",
  "verbose",
  "utc",
  "full-time",
  "zstd",
  "gzip",
  "gunzip",
  "bzip2",
  "xz",
  "lzip",
  "lzma",
  "lzop",
  "compress",
  "uncompress",
  "auto-compress",
  "force-local",
  "no-recursion",
  "recursion",
  "null",
  "no-null",
  "checkpoint",
  "warning",
  "exclude-vcs",
  "exclude-caches",
  "exclude-backups",
  "one-file-system",
  "ignore-zeros",
  "show-defaults",
  "show-omitted-dirs",
  "block-number",
  "interactive",
  "confirmation",
  "dereference",
  "hard-dereference",
  "help",
  "version",
  "usage",
  "keep-old-files",
  "skip-old-files",
  "overwrite",
  "to-stdout",
  "no-same-owner",
  "same-owner",
  "no-same-permissions",
  "same-permissions",
  "preserve-permissions",
  "sparse",
  "seek",
  "no-seek",
  "unquote",
  "no-unquote",
  "level",
  "incremental",
  "verify",
  "restrict",
  "no-xattrs",
  "xattrs",
  "no-acls",
  "acls",
  "no-selinux",
  "selinux",
  "absolute-names",
]);
const TAKES_VALUE = new Set([
  "file",
  "directory",
  "files-from",
  "exclude-from",
  "exclude",
  "blocking-factor",
  "format",
  "label",
  "owner",
  "group",
  "mode",
  "mtime",
  "newer",
  "newer-mtime",
  "after-date",
  "strip-components",
  "transform",
  "xform",
  "record-size",
  "tape-length",
  "occurrence",
  "sort",
  "quoting-style",
  "quote-chars",
  "no-quote-chars",
  "warning",
  "level",
]);

export const tar: ProgramCheck = (argv, fx) => {
  fx.label("tar");
  let mode: string | undefined;
  let forceLocal = false;
  let absoluteNames = false;
  const archives: Word[] = [];
  let directory: Word | undefined;
  let membersFromFile = false;
  let toStdout = false;
  const setMode = (m: string): void => {
    if (mode && mode !== m) fx.notReadOnly("`tar` is given more than one mode");
    mode = m;
  };
  const shortOption = (c: string, value: () => Word | undefined): void => {
    if (MODES[c]) setMode(MODES[c]!);
    if (c === "I") {
      value();
      runsCode(fx, "`tar -I` runs a compression program");
    } else if (c === "F") {
      value();
      runsCode(fx, "`tar -F` runs a script at the end of each volume");
    } else if (c === "g") {
      value();
      fx.dangerous("`tar -g` reads and writes a snapshot file");
    } else if (c === "P") {
      absoluteNames = true;
    } else if (c === "O") {
      toStdout = true;
    } else if (c === "f") {
      const a = value();
      if (a) archives.push(a);
    } else if (c === "C") {
      directory = value();
    } else if (c === "T" || c === "X") {
      const f = value();
      if (f) fx.read(f, "content");
      if (c === "T") membersFromFile = true;
    } else if (SHORT_ARGS.has(c)) value();
    else if (!SHORT_FLAGS.has(c)) fx.dangerous(`\`-${c}\` is not a \`tar\` option Toolgate knows`);
  };
  const members: Word[] = [];
  let i = 1;
  // Old style: the first word is a bundle of letters whose arguments follow in order.
  const first = argv[1];
  if (first?.literal && first.value.length > 0 && !first.value.startsWith("-") && /^[a-zA-Z]+$/.test(first.value)) {
    let next = 2;
    for (const c of first.value) shortOption(c, () => argv[next++]);
    i = next;
  }
  for (; i < argv.length; i++) {
    const w = argv[i]!;
    const v = w.value;
    if (!w.literal && (v.startsWith("-") || v.startsWith(UNKNOWN) || /^[*?[]/.test(v))) {
      fx.dangerous("`tar` gets an argument computed at run time that could be any option");
      continue;
    }
    // Member names: data when listing or extracting; the files to archive when creating or adding.
    if (!v.startsWith("-") || v === "-") {
      if (v !== "-") members.push(w);
      continue;
    }
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      const written = v.slice(2, eq >= 0 ? eq : undefined);
      const exact = ALL_LONG().includes(written);
      const danger = exact
        ? undefined
        : Object.keys(DANGEROUS_LONG).find((k) => written.length >= 2 && k.startsWith(written));
      if (danger) {
        if (RUNS_CODE.has(danger)) runsCode(fx, `\`tar --${danger}\` ${DANGEROUS_LONG[danger]}`);
        else fx.dangerous(`\`tar --${danger}\` ${DANGEROUS_LONG[danger]}`);
        if (eq < 0) i++;
        continue;
      }
      // GNU tar takes any unambiguous abbreviation; a name it does not know could be any of its options.
      const name = longName(written, ALL_LONG());
      if (name === undefined) {
        fx.dangerous(`\`--${written}\` is not a \`tar\` option Toolgate knows`);
        continue;
      }
      const value = (): Word | undefined => (eq >= 0 ? sliceWord(w, eq + 1) : argv[++i]);
      if (LONG_MODES[name]) setMode(LONG_MODES[name]!);
      else if (name === "file") {
        const a = value();
        if (a) archives.push(a);
      } else if (name === "directory") {
        directory = value();
      } else if (name === "files-from" || name === "exclude-from") {
        const f = value();
        if (f) fx.read(f, "content");
        if (name === "files-from") membersFromFile = true;
      } else if (name === "force-local") forceLocal = true;
      else if (name === "absolute-names") absoluteNames = true;
      else if (name === "to-stdout") toStdout = true;
      else if (TAKES_VALUE.has(name)) {
        if (eq < 0) value();
      }
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      const c = v[j]!;
      let consumed = false;
      shortOption(c, () => {
        consumed = true;
        return j < v.length - 1 ? sliceWord(w, j + 1) : argv[++i];
      });
      if (consumed) break;
    }
  }
  // A directory given to `tar -c` is archived with everything below it: a recursive content read.
  // `-T F` names more members inside F: files archived that are known only when tar runs.
  if (mode === "create" || mode === "append" || mode === "update") {
    for (const m of members) fx.read(m, "content", directory);
    if (membersFromFile) fx.read(unknownWord(false), "content", directory);
  }
  const writesArchive =
    mode === "create" || mode === "append" || mode === "update" || mode === "catenate" || mode === "delete";
  for (const a of archives) {
    if (a.literal && a.value === "-") continue;
    if (!forceLocal && a.value.includes(":"))
      runsCode(fx, "a `tar` archive named `host:file` is opened through a remote shell");
    if (writesArchive) fx.write(a);
    if (mode !== "create") fx.read(a, "content");
  }
  // Extraction writes the members under the target directory. Their names are inside the archive, known only
  // when tar runs: any of them could be a protected path below it (`.git/hooks/pre-commit`).
  if (mode === "extract" && !toStdout) {
    fx.write(directory ?? literalWord("."));
    fx.write(unknownWord(false), directory);
  }
  if (absoluteNames && mode !== "list") fx.dangerous("`tar -P` keeps absolute member names, which can write anywhere");
  if (mode !== "list")
    fx.notReadOnly(
      mode
        ? `\`tar\` ${mode === "extract" ? "extracts files" : "changes archives"}`
        : "`tar` without `-t` is not read-only",
    );
};
