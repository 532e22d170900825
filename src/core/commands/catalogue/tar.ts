/**
 * tar (GNU tar 1.34): only listing (`-t`/`--list`) is read-only. Options that run programs (`--to-command`,
 * `--checkpoint-action`, `--use-compress-program`/`-I`, `--info-script`/`-F`, `--rsh-command`,
 * `--rmt-command`) are dangerous, and so is an archive named `host:file` (opened through a remote shell)
 * unless `--force-local`. `--remove-files` and `--recursive-unlink` delete. Old-style bundled options
 * (`tar tvf x.tar`) are read like `-t -v -f x.tar`. The grammar follows `tar --help` here; whether each option
 * takes a value is checked against the real tar by test/unit/commands/catalogueGrammar.test.ts.
 */
import { literalWord, unknownWord } from "../model";
import type { ProgramCheck } from "./effects";
import { runsCode } from "./effects";
import { parseArgs, type OptionSpec } from "./options";

const RUNS = "runs a program";
/** The grammar's spelling of each mode (`same` maps the others onto these). */
const MODES: Readonly<Record<string, string>> = {
  "--list": "list",
  "--extract": "extract",
  "--create": "create",
  "--append": "append",
  "--update": "update",
  "--catenate": "catenate",
  "--diff": "diff",
  "--delete": "delete",
  "--test-label": "test-label",
};

export const TAR: OptionSpec = {
  bundle: true,
  flags: "AcdrtuxGnSkUWOmpsMBiajJzZhPlRvwo",
  shortArgs: {
    g: "data",
    C: "data",
    T: "content",
    X: "content",
    f: "data",
    F: "data",
    L: "data",
    b: "data",
    H: "data",
    V: "data",
    I: "data",
    K: "data",
    N: "data",
  },
  long: [
    "absolute-names",
    "acls",
    "anchored",
    "append",
    "auto-compress",
    "block-number",
    "bzip2",
    "catenate",
    "check-device",
    "check-links",
    "clamp-mtime",
    "compare",
    "compress",
    "concatenate",
    "confirmation",
    "create",
    "delay-directory-restore",
    "delete",
    "dereference",
    "diff",
    "exclude-backups",
    "exclude-caches",
    "exclude-caches-all",
    "exclude-caches-under",
    "exclude-vcs",
    "exclude-vcs-ignores",
    "extract",
    "force-local",
    "full-time",
    "get",
    "gunzip",
    "gzip",
    "hard-dereference",
    "help",
    "ignore-case",
    "ignore-command-error",
    "ignore-failed-read",
    "ignore-zeros",
    "incremental",
    "interactive",
    "keep-directory-symlink",
    "keep-newer-files",
    "keep-old-files",
    "list",
    "lzip",
    "lzma",
    "lzop",
    "multi-volume",
    "no-acls",
    "no-anchored",
    "no-auto-compress",
    "no-check-device",
    "no-delay-directory-restore",
    "no-ignore-case",
    "no-ignore-command-error",
    "no-null",
    "no-overwrite-dir",
    "no-recursion",
    "no-same-owner",
    "no-same-permissions",
    "no-seek",
    "no-selinux",
    "no-unquote",
    "no-verbatim-files-from",
    "no-wildcards",
    "no-wildcards-match-slash",
    "no-xattrs",
    "null",
    "numeric-owner",
    "old-archive",
    "one-file-system",
    "overwrite",
    "overwrite-dir",
    "portability",
    "posix",
    "preserve-order",
    "preserve-permissions",
    "read-full-records",
    "recursion",
    "recursive-unlink",
    "remove-files",
    "restrict",
    "same-order",
    "same-owner",
    "same-permissions",
    "seek",
    "selinux",
    "show-defaults",
    "show-omitted-dirs",
    "show-snapshot-field-ranges",
    "show-stored-names",
    "show-transformed-names",
    "skip-old-files",
    "sparse",
    "test-label",
    "to-stdout",
    "touch",
    "uncompress",
    "ungzip",
    "unlink-first",
    "unquote",
    "update",
    "usage",
    "utc",
    "verbatim-files-from",
    "verbose",
    "verify",
    "version",
    "wildcards",
    "wildcards-match-slash",
    "xattrs",
    "xz",
    "zstd",
  ],
  longArgs: {
    // Files tar reads itself: `--add-file` archives it; `-T`, `-X` and the maps are read line by line.
    "add-file": "content",
    "files-from": "content",
    "exclude-from": "content",
    "group-map": "content",
    "owner-map": "content",
    // Archives and the directory are judged below; the rest is data (`--exclude-ignore*`/`--exclude-tag*`
    // name a file looked for in each directory; `--newer`/`--mtime` may name a file whose time is taken).
    file: "data",
    directory: "data",
    "after-date": "data",
    "blocking-factor": "data",
    exclude: "data",
    "exclude-ignore": "data",
    "exclude-ignore-recursive": "data",
    "exclude-tag": "data",
    "exclude-tag-all": "data",
    "exclude-tag-under": "data",
    format: "data",
    group: "data",
    "hole-detection": "data",
    label: "data",
    level: "data",
    mode: "data",
    mtime: "data",
    newer: "data",
    "newer-mtime": "data",
    "no-quote-chars": "data",
    owner: "data",
    "pax-option": "data",
    "quote-chars": "data",
    "quoting-style": "data",
    "record-size": "data",
    sort: "data",
    "sparse-version": "data",
    "starting-file": "data",
    "strip-components": "data",
    suffix: "data",
    "tape-length": "data",
    transform: "data",
    warning: "data",
    "xattrs-exclude": "data",
    "xattrs-include": "data",
    xform: "data",
    // Dangerous (below): they keep their value, so it is never read as a member name.
    "to-command": "data",
    "checkpoint-action": "data",
    "use-compress-program": "data",
    "info-script": "data",
    "new-volume-script": "data",
    "rsh-command": "data",
    "rmt-command": "data",
    "index-file": "data",
    "volno-file": "data",
    "listed-incremental": "data",
  },
  longOptional: {
    "atime-preserve": "data",
    backup: "data",
    checkpoint: "data",
    occurrence: "data",
    "one-top-level": "data",
    totals: "data",
  },
  dangerous: {
    "--to-command": `${RUNS} for every file`,
    "--checkpoint-action": "can run a command at checkpoints",
    "--use-compress-program": `${RUNS} to compress`,
    "-I": `${RUNS} to compress`,
    "--info-script": `${RUNS} at the end of each volume`,
    "--new-volume-script": `${RUNS} at the end of each volume`,
    "-F": `${RUNS} at the end of each volume`,
    "--rsh-command": `${RUNS} as the remote shell`,
    "--rmt-command": `${RUNS} as the remote tape server`,
    "--index-file": "writes its listing to a file",
    "--volno-file": "writes the volume number to a file",
    "--listed-incremental": "reads and writes a snapshot file",
    "-g": "reads and writes a snapshot file",
  },
  deletes: {
    "--remove-files": "deletes the files it archives",
    "--recursive-unlink": "deletes what is in a directory before extracting into it",
  },
  same: {
    "-t": "--list",
    "-x": "--extract",
    "--get": "--extract",
    "-c": "--create",
    "-r": "--append",
    "-u": "--update",
    "-A": "--catenate",
    "--concatenate": "--catenate",
    "-d": "--diff",
    "--compare": "--diff",
    "-f": "--file",
    "-C": "--directory",
    "-T": "--files-from",
    "-P": "--absolute-names",
    "-O": "--to-stdout",
  },
};

/** Options that only print about tar itself. */
const ABOUT_TAR = new Set(["--help", "--usage", "--version", "--show-defaults"]);

export const tar: ProgramCheck = (argv, fx) => {
  fx.label("tar");
  const { positionals, seen } = parseArgs(argv, 1, TAR, fx, "tar");
  const modes = [...new Set(seen.all().flatMap((o) => (MODES[o] ? [MODES[o]] : [])))];
  if (modes.length > 1) fx.notReadOnly("`tar` is given more than one mode");
  const mode = modes[0];
  if (mode === undefined && positionals.length === 0 && seen.all().some((o) => ABOUT_TAR.has(o))) return;
  const archives = seen.valuesOf("--file");
  const directory = seen.valueOf("--directory");
  // Member names: data when listing or extracting; the files to archive when creating or adding.
  const members = positionals.filter((w) => !(w.literal && w.value === "-"));
  // A directory given to `tar -c` is archived with everything below it: a recursive content read.
  // `-T F` names more members inside F: files archived that are known only when tar runs.
  if (mode === "create" || mode === "append" || mode === "update") {
    for (const m of members) fx.read(m, "content", directory);
    if (seen.has("--files-from")) fx.read(unknownWord(false), "content", directory);
  }
  const writesArchive =
    mode === "create" || mode === "append" || mode === "update" || mode === "catenate" || mode === "delete";
  for (const a of archives) {
    if (a.literal && a.value === "-") continue;
    if (!seen.has("--force-local") && a.value.includes(":"))
      runsCode(fx, "a `tar` archive named `host:file` is opened through a remote shell");
    if (writesArchive) fx.write(a);
    if (mode !== "create") fx.read(a, "content");
  }
  // Extraction writes the members under the target directory. Their names are inside the archive, known only
  // when tar runs: any of them could be a protected path below it (`.git/hooks/pre-commit`).
  if (mode === "extract" && !seen.has("--to-stdout")) {
    fx.write(directory ?? literalWord("."));
    fx.write(unknownWord(false), directory);
  }
  if (seen.has("--absolute-names") && mode !== "list")
    fx.dangerous("`tar -P` keeps absolute member names, which can write anywhere");
  if (mode !== "list")
    fx.notReadOnly(
      mode
        ? `\`tar\` ${mode === "extract" ? "extracts files" : "changes archives"}`
        : "`tar` without `-t` is not read-only",
    );
};
