/**
 * Compressors. gzip, bzip2, xz and lzma replace each file they are given with its (de)compressed version:
 * the input is deleted unless the line keeps it (`-k`/`--keep`), writes to standard output (`-c`/`--stdout`,
 * which leaves the files alone: read-only), or only tests or lists (`-t`, `-l`). zstd and lz4 keep their input
 * unless `--rm`. `zip -m`/`--move` deletes what it archives. With no file, they filter standard input to
 * standard output. Option tables follow `--help` of the programs installed here (gzip 1.12, bzip2 1.0.8,
 * xz 5.4, zstd 1.5, lz4 1.9, zip 3.0).
 */
import { unknownWord, type Word } from "../model";
import { runsCode, type Effects, type ProgramCheck } from "./effects";
import { parseArgs, type OptionSpec, type Seen } from "./options";

const GZIP: OptionSpec = {
  flags: "cdfhklLnNqrtvV123456789",
  shortArgs: { S: "data" },
  long: [
    "stdout",
    "to-stdout",
    "decompress",
    "uncompress",
    "force",
    "help",
    "keep",
    "list",
    "license",
    "no-name",
    "name",
    "quiet",
    "silent",
    "recursive",
    "rsyncable",
    "synchronous",
    "test",
    "verbose",
    "version",
    "fast",
    "best",
  ],
  longArgs: { suffix: "data" },
  same: { "-c": "--stdout", "--to-stdout": "--stdout", "-k": "--keep", "-t": "--test", "-l": "--list" },
};

/** bzip2 reads its long options by exact name only (`--kee` is a bad flag), and has no `-l` or `-S`. */
const BZIP2: OptionSpec = {
  exact: true,
  flags: "hdzkftcqvLVs123456789",
  long: [
    "help",
    "decompress",
    "compress",
    "keep",
    "force",
    "test",
    "stdout",
    "quiet",
    "verbose",
    "license",
    "version",
    "small",
    "fast",
    "best",
  ],
  same: { "-c": "--stdout", "-k": "--keep", "-t": "--test" },
};

const XZ: OptionSpec = {
  flags: "zdtlkfceqvQhHV0123456789",
  shortArgs: { S: "data", F: "data", C: "data", T: "data", M: "data" },
  long: [
    "compress",
    "decompress",
    "uncompress",
    "test",
    "list",
    "keep",
    "force",
    "stdout",
    "to-stdout",
    "single-stream",
    "no-sparse",
    "ignore-check",
    "extreme",
    "no-adjust",
    "quiet",
    "verbose",
    "no-warn",
    "robot",
    "info-memory",
    "help",
    "long-help",
    "version",
    "fast",
    "best",
  ],
  longArgs: {
    suffix: "data",
    format: "data",
    check: "data",
    threads: "data",
    "block-size": "data",
    "block-list": "data",
    "flush-timeout": "data",
    "memlimit-compress": "data",
    "memlimit-decompress": "data",
    "memlimit-mt-decompress": "data",
    memlimit: "data",
    memory: "data",
    filters: "data",
  },
  longOptional: {
    // `--files[=F]`: the names of the files to process are read from F (standard input without one).
    files: "content",
    files0: "content",
    lzma1: "data",
    lzma2: "data",
    x86: "data",
    arm: "data",
    armthumb: "data",
    arm64: "data",
    powerpc: "data",
    ia64: "data",
    sparc: "data",
    delta: "data",
  },
  same: { "-c": "--stdout", "--to-stdout": "--stdout", "-k": "--keep", "-t": "--test", "-l": "--list" },
};

/** zstd's own parser: exact long names; `-#`, `-T#`, `-B#`, `-M#` carry their number attached. */
const ZSTD: OptionSpec = {
  exact: true,
  flags: "kdzfhHVcvqrlt0123456789",
  shortArgs: { o: "write", D: "content" },
  shortOptional: { T: "data", B: "data", M: "data" },
  long: [
    "keep",
    "rm",
    "decompress",
    "uncompress",
    "compress",
    "force",
    "help",
    "version",
    "stdout",
    "verbose",
    "quiet",
    "progress",
    "no-progress",
    "asyncio",
    "no-asyncio",
    "check",
    "no-check",
    "ultra",
    "adapt",
    "single-thread",
    "rsyncable",
    "exclude-compressed",
    "no-dictID",
    "compress-literals",
    "no-compress-literals",
    "row-match-finder",
    "no-row-match-finder",
    "test",
    "list",
    "sparse",
    "no-sparse",
    "pass-through",
    "no-pass-through",
  ],
  longArgs: { "output-dir-flat": "write", "output-dir-mirror": "write", filelist: "content", "patch-from": "content" },
  longOptional: { fast: "data", long: "data", format: "data" },
  deletes: { "--rm": "deletes its input files" },
  same: { "-c": "--stdout", "-t": "--test", "-l": "--list" },
};

/** lz4 (1.9): exact long names; keeps its input unless `--rm`; a second file name is the output. */
const LZ4: OptionSpec = {
  exact: true,
  flags: "zdfkcmrtqvhHVl0123456789",
  shortArgs: { D: "content" },
  shortOptional: { B: "data", b: "data", e: "data", i: "data" },
  long: [
    "compress",
    "decompress",
    "uncompress",
    "force",
    "keep",
    "rm",
    "stdout",
    "to-stdout",
    "multiple",
    "test",
    "quiet",
    "verbose",
    "help",
    "version",
    "favor-decSpeed",
    "content-size",
    "no-content-size",
    "sparse",
    "no-sparse",
    "no-frame-crc",
    "frame-crc",
    "best",
    "list",
  ],
  longOptional: { fast: "data" },
  deletes: { "--rm": "deletes its input files" },
  // `-l` is the legacy format here, not a listing; `-r` implies `-m`.
  same: { "-c": "--stdout", "--to-stdout": "--stdout", "-t": "--test", "-m": "--multiple", "-r": "--multiple" },
};

interface Family {
  readonly spec: OptionSpec;
  /** The program removes each input file it (de)compresses unless kept (gzip, bzip2, xz). */
  readonly removesInput: boolean;
  /** Invoked under this name it writes to standard output (`zcat`, `xzcat`). */
  readonly toStdout?: boolean;
}

/** Whether the line leaves the files alone: to standard output, a test or a listing. */
function onlyReads(seen: Seen, family: Family): boolean {
  return family.toStdout === true || ["--stdout", "--test", "--list"].some((o) => seen.has(o));
}

function compressor(program: string, family: Family): ProgramCheck {
  return (argv, fx) => {
    fx.label(program);
    const { positionals, seen } = parseArgs(argv, 1, family.spec, fx, program);
    const files = positionals.filter((w) => !(w.literal && w.value === "-"));
    const listed = seen.has("--files") || seen.has("--files0") || seen.has("--filelist");
    if (listed) fx.read(unknownWord(false), "content");
    for (const f of files) fx.read(f, "content");
    if (onlyReads(seen, family)) return;
    if (files.length === 0 && !listed) return; // standard input to standard output
    fx.notReadOnly(`\`${program}\` writes (de)compressed files`);
    writesBeside(program, files, seen, fx);
    if (family.removesInput && !seen.has("--keep")) fx.deletes(`\`${program}\` deletes its input files (no \`-k\`)`);
  };
}

/**
 * Where the output goes: beside each input, under a name with the suffix added or removed, which the words
 * cannot tell exactly; so the input's own name is checked as a write (a protected path asks) and, with `-r`
 * or a list of names, the files below, known only when it runs.
 */
function writesBeside(program: string, files: readonly Word[], seen: Seen, fx: Effects): void {
  if (program.startsWith("lz4") && !seen.has("--multiple") && files.length === 2) {
    fx.write(files[1]!);
    return;
  }
  if (seen.has("-o") || seen.has("--output-dir-flat") || seen.has("--output-dir-mirror")) return;
  for (const f of files) fx.write(f);
  if (
    seen.has("-r") ||
    seen.has("--recursive") ||
    seen.has("--multiple") ||
    seen.has("--files") ||
    seen.has("--files0")
  )
    fx.write(unknownWord(false));
}

/**
 * zip: not vouched for (it writes an archive). Its grammar is large (`-x`/`-i` take every following word), so
 * it is not modelled option by option: each argument is passed on as a path it may touch, `-m` anywhere in a
 * cluster (or `--move`) is a deletion, and `-TT`/`--unzip-command` runs a program.
 */
const zip: ProgramCheck = (argv, fx) => {
  fx.label("zip");
  fx.notReadOnly("`zip` writes an archive");
  let optionsDone = false;
  for (const w of argv.slice(1)) {
    const v = w.value;
    if (!optionsDone && w.literal && v === "--") optionsDone = true;
    else if (!optionsDone && (!w.literal || v.startsWith("-"))) {
      if (!w.literal) fx.dangerous("`zip` gets an argument computed at run time that could be any option");
      else if (v.startsWith("--")) {
        // Any long option that could be `--move` or `--unzip-command` counts as it.
        if (v.startsWith("--m")) fx.deletes("`zip --move` deletes the files it archives");
        if (v.startsWith("--u") || v.includes("=")) runsCode(fx, "`zip --unzip-command` runs a program");
      } else {
        if (v.includes("m")) fx.deletes("`zip -m` deletes the files it archives");
        if (v.includes("TT")) runsCode(fx, "`zip -TT` runs a program to test the archive");
      }
      continue;
    }
    fx.mayTouch(w, undefined, true);
  }
};

const GZ: Family = { spec: GZIP, removesInput: true };
const BZ: Family = { spec: BZIP2, removesInput: true };
const XZF: Family = { spec: XZ, removesInput: true };

export const COMPRESS: Readonly<Record<string, ProgramCheck>> = {
  gzip: compressor("gzip", GZ),
  gunzip: compressor("gunzip", GZ),
  zcat: compressor("zcat", { ...GZ, toStdout: true }),
  bzip2: compressor("bzip2", BZ),
  bunzip2: compressor("bunzip2", BZ),
  bzcat: compressor("bzcat", { ...BZ, toStdout: true }),
  xz: compressor("xz", XZF),
  unxz: compressor("unxz", XZF),
  xzcat: compressor("xzcat", { ...XZF, toStdout: true }),
  lzma: compressor("lzma", XZF),
  unlzma: compressor("unlzma", XZF),
  lzcat: compressor("lzcat", { ...XZF, toStdout: true }),
  zstd: compressor("zstd", { spec: ZSTD, removesInput: false }),
  unzstd: compressor("unzstd", { spec: ZSTD, removesInput: false }),
  zstdcat: compressor("zstdcat", { spec: ZSTD, removesInput: false, toStdout: true }),
  lz4: compressor("lz4", { spec: LZ4, removesInput: false }),
  unlz4: compressor("unlz4", { spec: LZ4, removesInput: false }),
  lz4cat: compressor("lz4cat", { spec: LZ4, removesInput: false, toStdout: true }),
  zip,
};
