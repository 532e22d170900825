/**
 * Which variable assignments change what programs do. Applies to prefixes (`PAGER=sh git log`), statements
 * (`PATH=/tmp/x; ls` — the shell variable may already be exported), `export`, `env NAME=value`, `read NAME`
 * and `for NAME in`. A name is risky when it is listed here or looks like configuration of a program
 * (`*_OPTIONS`, `*_PATH`, `*PAGER`...); other names (`CI`, `PORT`, `FOO`) are data.
 */
import type { Word } from "./model";

/** Names known to be harmless even though they match a risky pattern below. */
const HARMLESS = new Set([
  "CI",
  "NODE_ENV",
  "NODE_NO_WARNINGS",
  "BABEL_ENV",
  "FORCE_COLOR",
  "NO_COLOR",
  "CLICOLOR",
  "CLICOLOR_FORCE",
  "TERM",
  "COLUMNS",
  "LINES",
  "LANG",
  "LANGUAGE",
  "TZ",
  "DEBUG",
  "RUST_LOG",
  "RUST_BACKTRACE",
  "PYTHONUNBUFFERED",
  "PYTHONDONTWRITEBYTECODE",
  "PYTHONIOENCODING",
  "PYTHONHASHSEED",
  "PYTHONUTF8",
  "GIT_AUTHOR_NAME",
  "GIT_AUTHOR_EMAIL",
  "GIT_AUTHOR_DATE",
  "GIT_COMMITTER_NAME",
  "GIT_COMMITTER_EMAIL",
  "GIT_COMMITTER_DATE",
  "GIT_TERMINAL_PROMPT",
  "GIT_OPTIONAL_LOCKS",
  "NEXT_TELEMETRY_DISABLED",
  "HUSKY",
  "VERBOSE",
  "PORT",
  "HOST",
]);

/** Pagers may be set to these values: they run nothing but cat. */
const PAGERS = new Set([
  "PAGER",
  "GIT_PAGER",
  "MANPAGER",
  "SYSTEMD_PAGER",
  "BAT_PAGER",
  "AWS_PAGER",
  "PSQL_PAGER",
  "LESS",
]);
const HARMLESS_PAGER_VALUES = new Set(["cat", ""]);

const RISKY = new Set([
  "PATH",
  "IFS",
  "PS0",
  "PS1",
  "PS2",
  "PS3",
  "PS4",
  "PROMPT_COMMAND",
  "ENV",
  "BASH_ENV",
  "SHELLOPTS",
  "BASHOPTS",
  "CDPATH",
  "GLOBIGNORE",
  "HOME",
  "OLDPWD",
  "PWD",
  "EDITOR",
  "VISUAL",
  "BROWSER",
  "SHELL",
  "HISTFILE",
  "HISTFILESIZE",
  "HISTCONTROL",
  "HISTIGNORE",
  "EXECIGNORE",
  "FIGNORE",
  "HOSTFILE",
  "OPTIND",
  "OPTERR",
  "INPUTRC",
  "TMPDIR",
  "LESSOPEN",
  "LESSCLOSE",
  "LESSKEY",
  "LESSKEYIN",
  "LESSEDIT",
  "CLASSPATH",
  "GCONV_PATH",
  "LOCPATH",
  "NLSPATH",
  "HOSTALIASES",
  "RES_OPTIONS",
  "LOCALDOMAIN",
  "TERMINFO",
  "TERMCAP",
  "MAIL",
  "MAILPATH",
  "FCEDIT",
  "SUDO_EDITOR",
  "CC",
  "CXX",
  "LD",
  "AR",
  "AS",
  "CPP",
  "MAKE",
  "MAKEFLAGS",
  "MAKEFILES",
  "MAGIC",
  "MFLAGS",
  "GOFLAGS",
  "RUSTFLAGS",
  "CFLAGS",
  "LDFLAGS",
  "WGETRC",
  "CURL_HOME",
  "GREP_OPTIONS",
  "TAR_OPTIONS",
  "ZDOTDIR",
  "TEXINPUTS",
  "PERLIO",
  "COMP_WORDBREAKS",
  "POSIXLY_CORRECT",
  "OPENSSL_CONF",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "NODE_OPTIONS",
  "DOTNET_STARTUP_HOOKS",
  "R_PROFILE",
  "R_PROFILE_USER",
  "KUBECONFIG",
  "DOCKER_HOST",
]);
const RISKY_PREFIX =
  /^(LD_|DYLD_|GIT_|BASH_|BASH_FUNC_|NPM_CONFIG_|npm_config_|YARN_|PNPM_|BUN_|DENO_|PYTHON|PERL|RUBY|NODE_|JAVA|_JAVA|JDK_|XDG_|SSH_|GPG|GNUPG|DOCKER_|KUBE|AWS_|PIP_|CARGO_|RUSTC|RUSTUP|CONDA|VIRTUAL_ENV|MAVEN|GRADLE|SUDO_|LESS|GEM_|BUNDLE|COMPOSER|GOPATH|GOROOT|GOBIN|GOPROXY|GONOSUMDB|GOPRIVATE|GOTOOLCHAIN|HG|SVN|VAGRANT|TERRAFORM|TF_|ANSIBLE|OPENSSL|CURL_|HTTP_PROXY|HTTPS_PROXY|ALL_PROXY|http_proxy|https_proxy|all_proxy|NO_PROXY|no_proxy)/;
const RISKY_PART =
  /(PAGER|EDITOR|VISUAL|SHELL|COMMAND|CMD|PROG|PRELOAD|PATH|OPTIONS|OPTS|FLAGS|HOOK|ASKPASS|CONFIG|RC$|_HOME$|_DIR$|EXEC|WRAPPER|PLUGIN|LOADER|STARTUP|INIT|PROFILE|INCLUDE|LIBRARY|MODULE|SCRIPT|INTERPRETER|RUNNER|LAUNCHER|HELPER|TOOL|DRIVER|BIN$|BINARY)/i;

/** Why assigning `name` is risky, or undefined when it is data. */
export function assignmentProblem(rawName: string, value: Word): string | undefined {
  const name = rawName.replace(/\[.*$/, "");
  // Not a shell name (`BASH_FUNC_ls%%` through env): an exported function or something stranger.
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    return `\`${rawName}=\` is not an ordinary variable (it can define a function)`;
  if (name.startsWith("LC_") || name === "LANG" || name === "LANGUAGE") {
    // A locale name with a slash is a path to locale data.
    return value.literal && !value.value.includes("/")
      ? undefined
      : `\`${name}=\` with a path loads locale data from it`;
  }
  if (HARMLESS.has(name)) return undefined;
  if (PAGERS.has(name))
    return value.literal && HARMLESS_PAGER_VALUES.has(value.value)
      ? undefined
      : `\`${name}=\` chooses a program that git, man and others run`;
  if (RISKY.has(name) || RISKY_PREFIX.test(name) || RISKY_PART.test(name))
    return `\`${name}=\` can change which programs run or what they do`;
  return undefined;
}
