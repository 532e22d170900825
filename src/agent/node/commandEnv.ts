/**
 * The environment a command runs with: the host's, minus what changes what bash itself runs or how it parses
 * (the analysis assumed a clean non-interactive bash), minus loader and interpreter hooks that run code in
 * every program, minus the variables through which programs add options, files or programs to what the line
 * names (the analysis judged each program by its argv alone: the person's environment must not widen what it
 * proved, e.g. a `TAR_OPTIONS` with `--checkpoint-action` or a ripgrep config with a `--glob`), plus git's
 * `safe.bareRepository=explicit` (a bare repository planted in the workspace cannot configure hooks or fsmonitor
 * for a later `git` that merely walks into it).
 */

/** Removed by name. */
const STRIPPED = new Set([
  "BASH_ENV",
  "ENV",
  "PROMPT_COMMAND",
  "PS0",
  "PS1",
  "PS2",
  "PS3",
  "PS4",
  "SHELLOPTS",
  "BASHOPTS",
  "IFS",
  "CDPATH",
  "GLOBIGNORE",
  "HISTFILE",
  "INPUTRC",
  "EXECIGNORE",
  "LD_PRELOAD",
  "LD_AUDIT",
  "LD_LIBRARY_PATH",
  "NODE_OPTIONS",
  "PYTHONSTARTUP",
  "PERL5OPT",
  "RUBYOPT",
  "JAVA_TOOL_OPTIONS",
  "_JAVA_OPTIONS",
  "GIT_SSH_COMMAND",
  "GIT_EXTERNAL_DIFF",
  "GIT_PAGER",
  "GIT_EDITOR",
  "GIT_ASKPASS",
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_EXEC_PATH",
  "GIT_TEMPLATE_DIR",
  // Options, files and programs read from the environment by programs the catalogue judges from their argv.
  "TAR_OPTIONS",
  "GREP_OPTIONS",
  "RIPGREP_CONFIG_PATH",
  "GZIP",
  "XZ_OPT",
  "XZ_DEFAULTS",
  "BZIP",
  "BZIP2",
  "LESSOPEN",
  "LESSCLOSE",
  "PAGER",
  "MANPAGER",
  "MANOPT",
  "RSYNC_RSH",
  "RSYNC_CONNECT_PROG",
]);
/** Removed by prefix: exported functions and every dynamic-loader hook. */
const STRIPPED_PREFIX = /^(BASH_FUNC_|DYLD_|LD_)/;

export function commandEnvironment(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) {
    if (v === undefined || STRIPPED.has(k) || STRIPPED_PREFIX.test(k)) continue;
    env[k] = v;
  }
  // GIT_CONFIG_COUNT appends to what the person's environment already passes to git.
  const prior = Number.parseInt(env.GIT_CONFIG_COUNT ?? "0", 10);
  const n = Number.isInteger(prior) && prior >= 0 ? prior : 0;
  if (!(Number.isInteger(prior) && prior >= 0)) {
    for (const k of Object.keys(env)) if (/^GIT_CONFIG_(KEY|VALUE)_\d+$/.test(k)) delete env[k];
  }
  env[`GIT_CONFIG_KEY_${n}`] = "safe.bareRepository";
  env[`GIT_CONFIG_VALUE_${n}`] = "explicit";
  env.GIT_CONFIG_COUNT = String(n + 1);
  return env;
}

/** The bash argv for one decided line: no profile, no rc file, nothing but the line. */
export function bashArgv(line: string): { readonly file: string; readonly args: readonly string[] } {
  return { file: "bash", args: ["--noprofile", "--norc", "-c", line] };
}
