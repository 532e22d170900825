/**
 * The options of each git subcommand Toolgate reads, in git's own notation (notation.ts), checked against the
 * real git's `-h` and `--git-completion-helper` (test/unit/commands/gitGrammar.test.ts). An option a table does
 * not list, or a word computed at run time where an option could stand, is a hard ask in every mode: it could be
 * a harmful option git reads in a way the table does not know.
 *
 * Every table also carries `HARMFUL`: the long options that make any git subcommand run a program or write a
 * file, so that a spelling of one (`--ext-diff`, or an abbreviation git's parse-options accepts: `--upl`,
 * `--op`) is a hard ask wherever it is written, even where the subcommand has no such option.
 */
import type { OptionSpec } from "../options";
import { notation, type Reasons } from "./notation";

/** Why each harmful option is harmful, by long name (or short spelling). */
export const REASONS: Reasons = {
  "ext-diff": "runs an external diff program",
  textconv: "runs text-conversion programs",
  "open-files-in-pager": "runs a pager program on the files",
  "upload-pack": "runs a program for the transfer",
  "receive-pack": "runs a program for the transfer",
  exec: "runs a program",
  extcmd: "runs a program",
  filters: "runs filter programs",
  template: "installs hooks from a template directory, which git then runs",
  config: "sets configuration, which can run programs",
  "config-env": "sets configuration, which can run programs",
  "git-dir": "points git at a repository whose configuration can run programs",
  "work-tree": "points git at a repository whose configuration can run programs",
  bare: "takes the working directory as a repository, whose configuration can run programs",
  "-u": "runs a program for the transfer",
  output: "writes its output to a file",
  "super-prefix": "is internal",
  edit: "runs an editor",
  help: "opens a manual page viewer",
  "edit-description": "runs an editor",
};

/** Harmful options of every subcommand (kept only where the subcommand's own table does not define the name). */
const HARMFUL_TEXT =
  "!--ext-diff !--textconv !--open-files-in-pager? !--upload-pack= !--receive-pack= !--exec= !--extcmd= " +
  "!--filters !--template= !--config= !--config-env= *--output=write *--help";

/** git's global options (before the subcommand): read by exact name only, as git.c does. */
export const GLOBAL: OptionSpec = notation(
  "-v|--version *--help --html-path --man-path --info-path -C= -c= !--config-env= --exec-path? " +
    "-p|--paginate -P|--no-pager --no-replace-objects --no-lazy-fetch --no-optional-locks --no-advice " +
    "--literal-pathspecs --glob-pathspecs --noglob-pathspecs --icase-pathspecs !--git-dir= !--work-tree= !--bare " +
    "--namespace= --attr-source= --list-cmds= *--super-prefix=",
  REASONS,
  { exact: true, posix: true, unknownOptions: "unknown" },
);

/** The diff options (diff.c's parse-options table, as `git range-diff -h` lists them). */
const DIFF =
  "-p|--patch -s|--no-patch -u -U|--unified? -W|--function-context --raw --patch-with-raw --patch-with-stat " +
  "--numstat --shortstat -X|--dirstat? --cumulative --dirstat-by-file? --check --summary --name-only --name-status " +
  "--stat? --stat-width= --stat-name-width= --stat-graph-width= --stat-count= --compact-summary --binary " +
  "--full-index --color? --ws-error-highlight= -z --abbrev? --src-prefix= --dst-prefix= --line-prefix= --no-prefix " +
  "--default-prefix --inter-hunk-context= --output-indicator-new= --output-indicator-old= " +
  "--output-indicator-context= -B|--break-rewrites? -M|--find-renames? -D|--irreversible-delete -C|--find-copies? " +
  "--find-copies-harder --no-renames --rename-empty --follow -l= --minimal -w|--ignore-all-space " +
  "-b|--ignore-space-change --ignore-space-at-eol --ignore-cr-at-eol --ignore-blank-lines " +
  "-I|--ignore-matching-lines= --indent-heuristic --patience --histogram --diff-algorithm= --anchored= " +
  "--word-diff? --word-diff-regex= --color-words? --color-moved? --color-moved-ws= --relative? -a|--text -R " +
  "--exit-code --quiet !--ext-diff !--textconv --ignore-submodules? --submodule? --ita-invisible-in-index " +
  "--ita-visible-in-index -S= -G= --pickaxe-all --pickaxe-regex -O=content --rotate-to= --skip-to= " +
  "--find-object= --diff-filter= *--output=write";

/**
 * The revision options (revision.c reads them by hand: no abbreviations; `--x=v` or `--x v` for those that take
 * a value, attached only for `?`), with log's own.
 */
const REV =
  "-NUM -n|--max-count= --skip= --since= --after= --since-as-filter= --until= --before= --max-age? --min-age? " +
  "--author= --committer= --grep-reflog= --grep= --all-match --invert-grep -i|--regexp-ignore-case " +
  "--basic-regexp -E|--extended-regexp -F|--fixed-strings -P|--perl-regexp --remove-empty --merges --no-merges " +
  "--min-parents? --max-parents? --no-min-parents --no-max-parents --first-parent --exclude-first-parent-only " +
  "--not --all --branches? --tags? --remotes? --glob= --exclude= --exclude-hidden= --reflog --alternate-refs " +
  "--single-worktree --ignore-missing --bisect --stdin --cherry-mark --cherry-pick --left-only --right-only " +
  "--cherry -g|--walk-reflogs --merge --boundary --simplify-by-decoration --show-pulls --full-history --dense " +
  "--sparse --simplify-merges --ancestry-path? --date-order --author-date-order --topo-order --reverse " +
  "--no-walk? --do-walk --pretty? --format? --abbrev-commit --oneline --encoding= --expand-tabs? --notes? " +
  "--show-notes? --standard-notes --show-signature --relative-date --date= --parents --children --left-right " +
  "--graph --show-linear-break? -c --cc --dd -m -r -t --diff-merges= --combined-all-paths --remerge-diff " +
  "--full-diff --log-size -L= -v --objects --objects-edge --objects-edge-aggressive --unpacked --in-commit-order " +
  "--object-names --timestamp --count --header --disk-usage? --filter? --filter-print-omitted --missing? " +
  "--exclude-promisor-objects --bisect-vars --bisect-all --indexed-objects --early-output? --unsorted-input " +
  "--use-bitmap-index --progress? -q|--quiet --always --clear-decorations --decorate? --decorate-refs= " +
  "--decorate-refs-exclude= --source --use-mailmap --mailmap -z";

const LOG = `${DIFF} ${REV}`;

const STATUS =
  "-v|--verbose -s|--short -b|--branch --show-stash --ahead-behind --porcelain? --long -z|--null " +
  "-u|--untracked-files? --ignored? --ignore-submodules? --column? --no-renames -M|--find-renames?";
const BLAME =
  `${REV} --incremental -b --root --show-stats --progress --score-debug -f|--show-name -n|--show-number ` +
  "-p|--porcelain --line-porcelain -c -t -l -s -e|--show-email -w --ignore-rev= --ignore-revs-file=content " +
  "--color-lines --color-by-age --minimal -S=content --contents=content -C? -M? -L= --abbrev? --date=";
/** The options of `git branch` and `git tag` that only list (any other one creates, changes or deletes refs). */
export const BRANCH_LISTING =
  "-v|--verbose -q|--quiet -r|--remotes --contains= --no-contains= --abbrev? -a|--all -l|--list --show-current " +
  "--merged= --no-merged= --column? --color? --sort= --points-at= -i|--ignore-case --format= --omit-empty";
export const TAG_LISTING =
  "-l|--list -n? --column? --contains= --no-contains= --merged= --no-merged= --sort= --points-at= --format= " +
  "--color? -i|--ignore-case --omit-empty";
const BRANCH =
  `${BRANCH_LISTING} -t|--track? -u|--set-upstream-to= --unset-upstream -d|--delete -D -m|--move -M -c|--copy -C ` +
  "--create-reflog *--edit-description -f|--force --recurse-submodules";
const TAG =
  `${TAG_LISTING} -d|--delete -v|--verify -a|--annotate -m|--message= -F|--file=content *-e|--edit -s|--sign ` +
  "--cleanup= -u|--local-user= -f|--force --create-reflog";
const GREP =
  "-NUM --cached --no-index --untracked --exclude-standard --recurse-submodules -v|--invert-match " +
  "-i|--ignore-case -w|--word-regexp -a|--text -I !--textconv -r|--recursive --max-depth= -E|--extended-regexp " +
  "-G|--basic-regexp -F|--fixed-strings -P|--perl-regexp -n|--line-number --column -h -H --full-name " +
  "-l|--files-with-matches --name-only -L|--files-without-match -z|--null -o|--only-matching -c|--count " +
  "--color? --break --heading -C|--context= -B|--before-context= -A|--after-context= --threads= " +
  "-p|--show-function -W|--function-context -f=content -e= --and --or --not -q|--quiet --all-match " +
  "!-O|--open-files-in-pager? --ext-grep -m|--max-count= --index";

/** Read-only subcommands and what they accept. */
const READERS: Readonly<Record<string, string>> = {
  status: STATUS,
  diff: `${DIFF} --cached --staged --merge-base --no-index -0 -1|--base -2|--ours -3|--theirs`,
  log: LOG,
  show: LOG,
  whatchanged: LOG,
  "diff-tree": `${DIFF} -r -t --root --stdin -m -s -v --pretty? --format? --no-commit-id -c --cc --combined-all-paths --always --merge-base`,
  "diff-files": `${DIFF} -0 -1|--base -2|--ours -3|--theirs -c --cc -q`,
  "diff-index": `${DIFF} --cached -m --merge-base`,
  "range-diff": `${DIFF} --creation-factor= --no-dual-color --dual-color --notes? --left-only --right-only`,
  shortlog: `${REV} -c|--committer -n|--numbered -s|--summary -e|--email -w? --group=`,
  "rev-list": REV,
  blame: BLAME,
  annotate: BLAME,
  "ls-files":
    "-z -t -v -f -c|--cached -d|--deleted -m|--modified -o|--others -i|--ignored -s|--stage -k|--killed " +
    "--directory --eol --empty-directory -u|--unmerged --resolve-undo -x|--exclude= -X|--exclude-from=content " +
    "--exclude-per-directory= --exclude-standard --full-name --recurse-submodules --error-unmatch --with-tree= " +
    "--abbrev? --debug --deduplicate --sparse --format=",
  "ls-tree":
    "-d -r -t -z -l|--long --name-only --name-status --object-only --full-name --full-tree --format= --abbrev?",
  "cat-file":
    "-e -p -t -s --allow-unknown-type --use-mailmap --mailmap --batch? --batch-check? -z --batch-command? " +
    "--batch-all-objects --buffer --follow-symlinks --unordered !--textconv !--filters --path=",
  describe:
    "--contains --debug --all --tags --long --first-parent --abbrev? --exact-match --candidates= --match= " +
    "--exclude= --always --dirty? --broken?",
  "name-rev": "--name-only --tags --refs= --exclude= --all --stdin --annotate-stdin --undefined --always",
  "merge-base": "-a|--all --octopus --independent --is-ancestor --fork-point",
  "show-ref": "--tags --heads --verify --head -d|--dereference -s|--hash? --abbrev? -q|--quiet --exclude-existing?",
  "for-each-ref":
    "-s|--shell -p|--perl --python --tcl --count= --format= --color? --sort= --points-at= --merged= " +
    "--no-merged= --contains= --no-contains= --ignore-case",
  "count-objects": "-v|--verbose -H|--human-readable",
  "check-ignore": "-q|--quiet -v|--verbose --stdin -z -n|--non-matching --no-index",
  "check-attr": "-a|--all --cached --stdin -z --source=",
  grep: GREP,
  var: "-l",
  version: "--build-options",
  cherry: "--abbrev? -v|--verbose",
  "show-branch":
    "-a|--all -r|--remotes --color? --more? --list --no-name --current --sha1-name --merge-base --independent " +
    "--topo-order --topics --sparse --date-order -g|--reflog?",
  "verify-commit": "-v|--verbose --raw",
  "verify-tag": "-v|--verbose --raw --format=",
  "rev-parse":
    "--parseopt --sq-quote --keep-dashdash --stop-at-non-option --stuck-long --revs-only --no-revs --flags " +
    "--no-flags --default= --prefix= --verify -q|--quiet --sq --short? --not --abbrev-ref? --symbolic " +
    "--symbolic-full-name --all --branches? --tags? --remotes? --glob= --exclude= --exclude-hidden= " +
    "--disambiguate= --local-env-vars --path-format= --git-dir --git-common-dir --resolve-git-dir= --git-path= " +
    "--show-toplevel --show-superproject-working-tree --shared-index-path= --absolute-git-dir " +
    "--is-inside-git-dir --is-inside-work-tree --is-bare-repository --is-shallow-repository --show-cdup " +
    "--show-prefix --show-object-format? --show-ref-format --since= --after= --until= --before= -h",
  branch: BRANCH,
  tag: TAG,
  "stash-show": `${DIFF} -u|--include-untracked --only-untracked`,
  "stash-list": LOG,
  remote: "-v|--verbose",
  "remote-get-url": "--push --all",
  "worktree-list": "--porcelain -v|--verbose --expire= -z",
  "notes-list": "",
  reflog: LOG,
};

/** State-changing subcommands whose options Toolgate reads (an allow rule for them licenses them). */
const WRITERS: Readonly<Record<string, string>> = {
  add:
    "-n|--dry-run -v|--verbose -i|--interactive -p|--patch *-e|--edit -f|--force -u|--update --renormalize " +
    "-N|--intent-to-add -A|--all --ignore-removal --refresh --ignore-errors --ignore-missing --sparse --chmod= " +
    "--pathspec-from-file=content --pathspec-file-nul",
  commit:
    "-q|--quiet -v|--verbose -F|--file=content --author= --date= -m|--message= -c|--reedit-message= " +
    "-C|--reuse-message= --fixup= --squash= --reset-author --trailer= -s|--signoff -t|--template=content " +
    "-e|--edit --cleanup= --status -S|--gpg-sign? -a|--all -i|--include --interactive -p|--patch -o|--only " +
    "-n|--no-verify --verify --dry-run --short --branch --ahead-behind --porcelain --long -z|--null --amend " +
    "--no-post-rewrite -u|--untracked-files? --pathspec-from-file=content --pathspec-file-nul --allow-empty " +
    "--allow-empty-message",
  push:
    "-v|--verbose -q|--quiet --repo= --all --branches --mirror -d|--delete --tags -n|--dry-run --porcelain " +
    "-f|--force --force-with-lease? --force-if-includes --recurse-submodules= --thin !--receive-pack= !--exec= " +
    "-u|--set-upstream --progress --prune --no-verify --verify --follow-tags --signed? --atomic " +
    "-o|--push-option= -4|--ipv4 -6|--ipv6",
  fetch:
    "-v|--verbose -q|--quiet --all --set-upstream -a|--append --atomic !--upload-pack= -f|--force -m|--multiple " +
    "-t|--tags -n -j|--jobs= --prefetch -p|--prune -P|--prune-tags --recurse-submodules? --dry-run " +
    "--write-fetch-head -k|--keep -u|--update-head-ok --progress --depth= --shallow-since= --shallow-exclude= " +
    "--deepen= --unshallow --refetch --update-shallow --refmap= -o|--server-option= -4|--ipv4 -6|--ipv6 " +
    "--negotiation-tip= --negotiate-only --filter= --auto-maintenance --auto-gc --show-forced-updates " +
    "--write-commit-graph --stdin",
  pull:
    "-v|--verbose -q|--quiet --progress --recurse-submodules? -r|--rebase? -n --stat --log? --signoff? --squash " +
    "--commit --edit --cleanup= --ff --ff-only --verify --verify-signatures --autostash -s|--strategy= " +
    "-X|--strategy-option= -S|--gpg-sign? --allow-unrelated-histories --all -a|--append !--upload-pack= " +
    "-f|--force -t|--tags -p|--prune -j|--jobs? --dry-run -k|--keep --depth= --shallow-since= " +
    "--shallow-exclude= --deepen= --unshallow --update-shallow --refmap= -o|--server-option= -4|--ipv4 " +
    "-6|--ipv6 --negotiation-tip= --show-forced-updates --set-upstream",
  merge:
    "-n --stat --summary --log? --squash --commit -e|--edit --cleanup= --ff --ff-only --rerere-autoupdate " +
    "--verify-signatures -s|--strategy= -X|--strategy-option= -m|--message= -F|--file=content --into-name= " +
    "-v|--verbose -q|--quiet --abort --quit --continue --allow-unrelated-histories --progress -S|--gpg-sign? " +
    "--autostash --overwrite-ignore --signoff --no-verify --verify",
  rebase:
    "--onto= --keep-base --no-verify --verify -q|--quiet -v|--verbose -n|--no-stat --stat --signoff " +
    "--committer-date-is-author-date --reset-author-date --ignore-date -C= --ignore-whitespace --whitespace= " +
    "-f|--force-rebase --no-ff --continue --skip --abort --quit --edit-todo --show-current-patch --apply " +
    "-m|--merge -i|--interactive --rerere-autoupdate --empty= --autosquash --update-refs -S|--gpg-sign? " +
    "--autostash !-x|--exec= -r|--rebase-merges? --fork-point -s|--strategy= -X|--strategy-option= --root " +
    "--reschedule-failed-exec --reapply-cherry-picks",
  checkout:
    "-b= -B= -l --guess --overlay -q|--quiet --recurse-submodules? --progress -m|--merge --conflict= " +
    "-d|--detach -t|--track? -f|--force --orphan= --overwrite-ignore --ignore-other-worktrees -2|--ours " +
    "-3|--theirs -p|--patch --ignore-skip-worktree-bits --pathspec-from-file=content --pathspec-file-nul",
  switch:
    "-c|--create= -C|--force-create= --guess --discard-changes -q|--quiet --recurse-submodules? --progress " +
    "-m|--merge --conflict= -d|--detach -t|--track? -f|--force --orphan= --overwrite-ignore " +
    "--ignore-other-worktrees",
  restore:
    "-s|--source= -S|--staged -W|--worktree --ignore-unmerged --overlay -q|--quiet --recurse-submodules? " +
    "--progress -m|--merge --conflict= -2|--ours -3|--theirs -p|--patch --ignore-skip-worktree-bits " +
    "--pathspec-from-file=content --pathspec-file-nul",
  reset:
    "-q|--quiet --no-refresh --refresh --mixed --soft --hard --merge --keep --recurse-submodules? -p|--patch " +
    "-N|--intent-to-add --pathspec-from-file=content --pathspec-file-nul",
  "cherry-pick":
    "--quit --continue --abort --skip --cleanup= -n|--no-commit -e|--edit -s|--signoff -m|--mainline= " +
    "--rerere-autoupdate --strategy= -X|--strategy-option= -S|--gpg-sign? -x --ff --allow-empty " +
    "--allow-empty-message --keep-redundant-commits",
  revert:
    "--quit --continue --abort --skip --cleanup= -n|--no-commit -e|--edit -s|--signoff -m|--mainline= " +
    "--rerere-autoupdate --strategy= -X|--strategy-option= -S|--gpg-sign? --reference",
  mv: "-v|--verbose -n|--dry-run -f|--force -k --sparse",
  clean: "-q|--quiet -n|--dry-run -f|--force -i|--interactive -d -e|--exclude= -x -X",
  rm: "-n|--dry-run -q|--quiet --cached -f|--force -r --ignore-unmatch --sparse --pathspec-from-file=content --pathspec-file-nul",
  "stash-push":
    "-k|--keep-index -S|--staged -p|--patch -q|--quiet -u|--include-untracked -a|--all -m|--message= " +
    "--pathspec-from-file=content --pathspec-file-nul",
  "stash-pop": "-q|--quiet --index",
  "stash-apply": "-q|--quiet --index",
  "stash-drop": "-q|--quiet",
  "stash-clear": "",
  "stash-branch": "",
  "stash-create": "",
  "stash-store": "-m|--message= -q|--quiet",
  "worktree-remove": "-f|--force",
  "worktree-prune": "-n|--dry-run -v|--verbose --expire=",
  "worktree-move": "-f|--force",
  "worktree-lock": "--reason=",
  "worktree-unlock": "",
  "worktree-repair": "",
  "remote-add": "-f|--fetch --tags -t|--track= -m|--master= --mirror?",
  "remote-remove": "",
  "remote-rm": "",
  "remote-rename": "--progress",
  "remote-set-url": "--push --add --delete",
  "remote-prune": "-n|--dry-run",
  "remote-update": "-p|--prune",
  "remote-set-head": "-a|--auto -d|--delete",
  "remote-set-branches": "--add",
  "remote-show": "-n",
  "notes-add": "-m|--message= -F|--file=content -c|--reedit-message= -C|--reuse-message= --allow-empty -f|--force",
  "notes-append": "-m|--message= -F|--file=content -c|--reedit-message= -C|--reuse-message= --allow-empty",
  "notes-remove": "--ignore-missing --stdin",
  // It prints a note's text out of git's objects: history, which asks when the repository tracks an ignored file.
  "notes-show": "",
  "stash-save": "-k|--keep-index -S|--staged -p|--patch -q|--quiet -u|--include-untracked -a|--all -m|--message=",
  clone:
    "-v|--verbose -q|--quiet --progress --reject-shallow -n|--no-checkout --bare --mirror -l|--local " +
    "--no-hardlinks -s|--shared --recurse-submodules? --recursive? -j|--jobs= !--template= --reference=names " +
    "--reference-if-able=names --dissociate -o|--origin= -b|--branch= !-u|--upload-pack= --depth= " +
    "--shallow-since= --shallow-exclude= --single-branch --no-tags --shallow-submodules " +
    "--separate-git-dir=write !-c|--config= --server-option= -4|--ipv4 -6|--ipv6 --filter= " +
    "--also-filter-submodules --remote-submodules --sparse --bundle-uri= --ref-format=",
  init:
    "!--template= --bare --shared? -q|--quiet --separate-git-dir=write -b|--initial-branch= --object-format= " +
    "--ref-format=",
  apply:
    "--exclude= --include= -p= --no-add --stat --numstat --summary --check --index -N|--intent-to-add --cached " +
    "--unsafe-paths --apply -3|--3way --build-fake-ancestor=write -z -C= --whitespace= --ignore-space-change " +
    "--ignore-whitespace -R|--reverse --unidiff-zero --reject --allow-overlap -v|--verbose -q|--quiet " +
    "--inaccurate-eof --recount --directory= --allow-empty",
  am:
    "-i|--interactive -3|--3way -q|--quiet -s|--signoff -u|--utf8 -k|--keep --keep-non-patch -m|--message-id " +
    "--keep-cr -c|--scissors --quoted-cr= --whitespace= --ignore-space-change --ignore-whitespace --directory= " +
    "--exclude= --include= -C= -p= --patch-format= --reject --resolvemsg= --continue -r|--resolved --skip " +
    "--abort --quit --show-current-patch? --allow-empty --committer-date-is-author-date --ignore-date " +
    "--rerere-autoupdate -S|--gpg-sign? --empty=",
  archive:
    "-NUM --format= --prefix= --add-file=content --add-virtual-file= -o=write *--output=write " +
    "--worktree-attributes -v|--verbose -l|--list --remote= !--exec=",
  "ls-remote":
    "-q|--quiet !-u|--upload-pack= -t|--tags -h|--heads --refs --get-url --sort= --exit-code --symref " +
    "-o|--server-option=",
  "format-patch":
    `${DIFF} ${REV} -n|--numbered -N|--no-numbered -s|--signoff --stdout --cover-letter --numbered-files ` +
    "--suffix= --start-number= -v|--reroll-count= --filename-max-length= --rfc --cover-from-description= " +
    "--subject-prefix= -o|--output-directory=write -k|--keep-subject --no-binary --zero-commit " +
    "--ignore-if-in-upstream -p|--no-stat --add-header= --to= --cc= --from? --in-reply-to= --attach? --inline? " +
    "--thread? --signature= --base= --signature-file=content -q|--quiet --progress --interdiff= --range-diff= " +
    "--creation-factor= --force-in-body-from",
  gc: "-q|--quiet --prune? --cruft --aggressive --auto --force --keep-largest-pack",
  "worktree-add":
    "-f|--force -b= -B= -d|--detach --checkout --lock --reason= -q|--quiet --track --guess-remote --orphan",
};

const HARMFUL = notation(HARMFUL_TEXT, REASONS);

/** `spec` with every harmful option its own table does not define. */
function withHarmful(spec: OptionSpec): OptionSpec {
  const own = (option: string): boolean => {
    const name = option.slice(2);
    return (
      (spec.long?.includes(name) ?? false) ||
      spec.longArgs?.[name] !== undefined ||
      spec.longOptional?.[name] !== undefined
    );
  };
  const pick = (table: Readonly<Record<string, string>> | undefined): Record<string, string> =>
    Object.fromEntries(Object.entries(table ?? {}).filter(([option]) => !own(option)));
  const runs = { ...pick(HARMFUL.runs), ...spec.runs };
  const dangerous = { ...pick(HARMFUL.dangerous), ...spec.dangerous };
  // The harmful options' values: `--exec=CMD` takes CMD, `--output=F` writes F.
  const longArgs = { ...spec.longArgs };
  const longOptional = { ...spec.longOptional };
  for (const option of [...Object.keys(runs), ...Object.keys(dangerous)]) {
    const name = option.slice(2);
    if (!option.startsWith("--") || own(option)) continue;
    const arg = HARMFUL.longArgs?.[name];
    const optional = HARMFUL.longOptional?.[name];
    if (arg !== undefined) longArgs[name] = arg;
    if (optional !== undefined) longOptional[name] = optional;
  }
  // An option Toolgate does not know, or a word computed at run time where an option could stand, could be
  // `--ext-diff`: a hard ask, as a harmful option is.
  // `-h` prints the usage, wherever the subcommand has no `-h` of its own.
  const ownH = spec.flags?.includes("h") || spec.shortArgs?.h !== undefined || spec.shortOptional?.h !== undefined;
  const flags = ownH ? spec.flags : `${spec.flags ?? ""}h`;
  return { ...spec, flags, runs, dangerous, longArgs, longOptional, unknownOptions: "unknown" };
}

function build(tables: Readonly<Record<string, string>>): ReadonlyMap<string, OptionSpec> {
  return new Map(Object.entries(tables).map(([name, text]) => [name, withHarmful(notation(text, REASONS))]));
}

/** Grammars of the read-only subcommands (and read-only uses: `branch-list`, `stash-show`...). */
export const READER_GRAMMARS = build(READERS);
/** Grammars of the state-changing subcommands Toolgate reads options of. */
export const WRITER_GRAMMARS = build(WRITERS);
/** The option tables as written, for the test that checks them against the real git. */
export const TABLES = { readers: READERS, writers: WRITERS };
/** For a subcommand without a table: only the options harmful in every subcommand are read (see `scanHarmful`). */
export const HARMFUL_ONLY: OptionSpec = HARMFUL;
