/**
 * git's global options, before the subcommand (`git -C dir -c key=value --no-pager log`), read by the one
 * option interpreter with the `GLOBAL` grammar. `-c` and `--config-env` set configuration, and configuration
 * runs programs (core.pager, core.sshCommand, diff.external...): only keys that change how output looks pass.
 * `--git-dir`, `--work-tree`, `--bare` and `--exec-path=DIR` point git at configuration or programs elsewhere.
 */
import { literalWord, type Word } from "../../model";
import { runsCode, type Effects } from "../effects";
import { parseArgs } from "../options";
import { GLOBAL } from "./grammars";

/** `-c` keys that change only how output looks. Anything else may run a program. */
const HARMLESS_CONFIG =
  /^(color\.[a-z.]+|core\.quotepath|core\.abbrev|log\.(showsignature|decorate|date|abbrevcommit|follow|mailmap|showroot)|diff\.(noprefix|mnemonicprefix|renames|relative|context|interhunkcontext|statgraphwidth|submodule|wserrorhighlight|colormoved|algorithm|indentheuristic)|advice\.[a-z]+|column\.[a-z]+|i18n\.logoutputencoding|pager\.[a-z-]+|core\.pager|format\.pretty|status\.[a-z]+|grep\.[a-z]+)$/;
/** Pager values that run nothing but `cat` (or nothing). */
const HARMLESS_PAGER = /^(cat|false|true|)$/;

export interface GitLine {
  /** Index of the subcommand in argv (argv.length if none). */
  readonly sub: number;
  /** `-C` directories, in order. */
  readonly dirs: readonly Word[];
}

/** Effects that go nowhere: reading the global options only to find the subcommand (rule matching). */
const NOWHERE: Effects = {
  stdin: undefined,
  dangerous: () => undefined,
  deletes: () => undefined,
  notReadOnly: () => undefined,
  unknown: () => undefined,
  read: () => undefined,
  write: () => undefined,
  movesTo: () => undefined,
  mayTouch: () => undefined,
  nested: () => undefined,
  payload: () => undefined,
  assign: () => undefined,
  chdir: () => undefined,
  label: () => undefined,
};

/** Reads the global options, reporting harmful ones to `fx` when given. */
export function gitGlobals(argv: readonly Word[], fx: Effects = NOWHERE): GitLine {
  const { seen, firstPositional } = parseArgs(argv, 1, GLOBAL, fx, "git");
  for (const kv of seen.valuesOf("-c")) checkConfig(kv, fx);
  // `--exec-path` alone prints where git's programs are; `--exec-path=DIR` runs them from DIR.
  if (seen.valueOf("--exec-path")) runsCode(fx, "`git --exec-path=` runs git programs from another directory");
  return { sub: firstPositional ?? argv.length, dirs: seen.valuesOf("-C") };
}

function checkConfig(kv: Word, fx: Effects): void {
  const eq = kv.value.indexOf("=");
  const key = (eq >= 0 ? kv.value.slice(0, eq) : kv.value).toLowerCase();
  const value = eq >= 0 ? kv.value.slice(eq + 1) : "";
  const pagerKey = key === "core.pager" || key.startsWith("pager.");
  if (!kv.literal || !HARMLESS_CONFIG.test(key) || (pagerKey && !HARMLESS_PAGER.test(value)))
    runsCode(fx, `\`git -c ${kv.literal ? kv.value : "…"}\` sets configuration, which can run programs`);
}

/** argv without global options (`git -C x --no-pager log` → `git log`), for matching rules. */
export function gitRuleArgv(argv: readonly Word[]): readonly Word[] {
  const { sub } = gitGlobals(argv);
  return sub === 1 ? argv : [argv[0]!, ...argv.slice(sub)];
}

/** The directory `git -C a -C b` works in: `a/b` (an absolute later one wins). */
export function joinDirs(dirs: readonly Word[]): Word {
  let value = "";
  let literal = true;
  for (const d of dirs) {
    literal &&= d.literal;
    value = d.value.startsWith("/") ? d.value : value ? `${value}/${d.value}` : d.value;
  }
  return literal ? literalWord(value) : { ...dirs[dirs.length - 1]!, literal: false };
}
