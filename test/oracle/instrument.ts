/**
 * What the gate said it would run, read from the real analysis in process: every simple command of every
 * script the analyzer parsed (the line and its shell payloads), every nested command a catalogue entry handed
 * back (wrappers, `find -exec`, `xargs`), and every path it put to the path gate with the answer.
 *
 * The analysis exposes none of this (CommandAnalysis carries a verdict only), so the test wraps the parser
 * on the analyzer instance and, through `vi.mock` of the catalogue module, each catalogue entry's Effects.
 * The same wrapper can mute one entry's checks: that is the mutation run.
 */
import type { BashAnalyzer } from "../../src/core/commands/analyzer";
import type { Effects, ProgramCheck } from "../../src/core/commands/catalogue/effects";
import type { Word } from "../../src/core/commands/model";
import type {
  CommandAnalysis,
  CommandAnalyzer,
  CommandContext,
  PathAccess,
  PathGate,
} from "../../src/core/commands/types";

export interface Listed {
  readonly words: readonly Word[];
  /** It also gets words not known to the analysis (xargs input). */
  readonly extra: boolean;
  /** `shell` for a command of a parsed script, else the catalogue entry that handed it back. */
  readonly via: string;
}

export interface PathCheck {
  readonly path: string;
  readonly cwd: string;
  readonly access: PathAccess;
  readonly ok: boolean;
  readonly rule: string | undefined;
}

export interface Capture {
  readonly analysis: CommandAnalysis;
  readonly listed: readonly Listed[];
  /** Every text the analyzer parsed as a script (the line, `bash -c` payloads, `eval` words...). */
  readonly scripts: readonly string[];
  readonly paths: readonly PathCheck[];
  /** The profile's own path gate, to classify what bash wrote (protected, ignored). */
  readonly gate: PathGate;
}

interface Recording {
  listed: Listed[];
  scripts: string[];
  paths: PathCheck[];
}

let current: Recording | undefined;

/** The mutation switch: the catalogue entry named here loses its checks on nested commands and payloads. */
export const mutation: { program: string | undefined } = { program: undefined };

function recordingEffects(program: string, fx: Effects): Effects {
  const rec = current;
  const muted = mutation.program === program;
  return {
    get stdin() {
      return fx.stdin;
    },
    get piped() {
      return fx.piped;
    },
    printsPaths: (list) => fx.printsPaths(list),
    dangerous: (reason) => {
      if (!muted) fx.dangerous(reason);
    },
    deletes: (reason) => fx.deletes(reason),
    unknown: (reason) => {
      if (!muted) fx.unknown(reason);
    },
    notReadOnly: (reason) => {
      if (!muted) fx.notReadOnly(reason);
    },
    read: (p, kind, base) => fx.read(p, kind, base),
    write: (p, base) => fx.write(p, base),
    movesTo: (p, base) => fx.movesTo(p, base),
    mayTouch: (p, base, writes) => fx.mayTouch(p, base, writes),
    nested: (argv, opts) => {
      if (muted) return;
      rec?.listed.push({
        words: opts.foundBelow ? argv.slice(0, -1) : argv,
        extra: opts.extraArgs === true || opts.foundBelow === true,
        via: program,
      });
      fx.nested(argv, opts);
    },
    payload: (script, what) => {
      if (!muted) fx.payload(script, what);
    },
    assign: (name, value) => fx.assign(name, value),
    chdir: (target) => fx.chdir(target),
    label: (name) => fx.label(name),
  };
}

/** Wraps one catalogue entry (used by the `vi.mock` factory of the catalogue module). */
export function instrumentEntry(program: string, check: ProgramCheck | undefined): ProgramCheck | undefined {
  if (!check) return undefined;
  return (argv, fx) => check(argv, recordingEffects(program, fx));
}

/** The real analyzer, recording what it looked at for each `analyze` call. */
export class RecordingAnalyzer implements CommandAnalyzer {
  private last: Capture | undefined;

  /** What the last `analyze` call looked at (once: a decision that analysed nothing then gives undefined). */
  take(): Capture | undefined {
    const c = this.last;
    this.last = undefined;
    return c;
  }

  constructor(private readonly inner: BashAnalyzer) {
    const parse = inner.parse.bind(inner);
    inner.parse = (command: string) => {
      const script = parse(command);
      current?.scripts.push(command);
      if (current)
        for (const c of script.commands)
          if (c.words.length > 0) current.listed.push({ words: c.words, extra: false, via: "shell" });
      return script;
    };
  }

  ready(): Promise<void> {
    return this.inner.ready();
  }

  analyze(command: string, ctx: CommandContext): CommandAnalysis {
    const rec: Recording = { listed: [], scripts: [], paths: [] };
    const paths: PathGate = {
      check: (p, cwd, access, kind) => {
        const v = ctx.paths.check(p, cwd, access, kind);
        rec.paths.push({ path: p, cwd, access, ok: v.ok, rule: v.ok ? undefined : v.rule });
        return v;
      },
      // Forwarded as they are: dropping one would judge a weaker gate than the one the product runs.
      ...(ctx.paths.checkPattern ? { checkPattern: ctx.paths.checkPattern.bind(ctx.paths) } : {}),
      ...(ctx.paths.unresolved ? { unresolved: ctx.paths.unresolved.bind(ctx.paths) } : {}),
    };
    const outer = current;
    current = rec;
    try {
      const analysis = this.inner.analyze(command, { ...ctx, paths });
      this.last = { analysis, listed: rec.listed, scripts: rec.scripts, paths: rec.paths, gate: ctx.paths };
      return analysis;
    } finally {
      current = outer;
    }
  }
}
