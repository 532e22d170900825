/**
 * Edits an agent's JSONC settings file to hold exactly one Toolgate hook, keeping everything else: other keys,
 * other hooks, comments and formatting outside the edited nodes (`jsonc-parser`'s `modify` rewrites only the
 * node it changes).
 *
 * Invariants: a file that does not parse, or whose `hooks` / event value has an unexpected type, is never
 * rewritten (ConfigEditError); an existing Toolgate entry is replaced in place where its group matches every
 * tool, every other Toolgate entry is removed (with a group left empty by that), so a second install changes
 * nothing; hooks that are not Toolgate's are never touched.
 */
import {
  applyEdits,
  findNodeAtLocation,
  getNodeValue,
  modify,
  parseTree,
  printParseErrorCode,
  type FormattingOptions,
  type JSONPath,
  type Node,
  type ParseError,
} from "jsonc-parser/lib/esm/main.js";

export class ConfigEditError extends Error {}

const FORMAT: FormattingOptions = { tabSize: 2, insertSpaces: true, eol: "\n" };

function tree(text: string, file: string): Node {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first)
    throw new ConfigEditError(
      `${file} is not valid JSON: ${printParseErrorCode(first.error)} at offset ${first.offset}`,
    );
  if (root?.type !== "object") throw new ConfigEditError(`${file} does not hold a JSON object`);
  return root;
}

function set(text: string, path: JSONPath, value: unknown, insert = false): string {
  return applyEdits(text, modify(text, path, value, { formattingOptions: FORMAT, isArrayInsertion: insert }));
}

/**
 * Removes element `index` of the array at `path`. Done by hand: jsonc-parser 3.3.1's `modify` cuts one
 * character too few when the last element is followed directly by `]` (`[a, b]` becomes `[a}]`).
 * Removes the element with the separator before it (after it, for the first), and no other text.
 */
function removeElement(text: string, file: string, path: JSONPath, index: number): string {
  const list = findNodeAtLocation(tree(text, file), path);
  const items = list?.children ?? [];
  const item = items[index];
  if (list === undefined || item === undefined) return text;
  const prev = items[index - 1];
  const next = items[index + 1];
  let from = list.offset + 1;
  let to = list.offset + list.length - 1;
  if (prev !== undefined) [from, to] = [prev.offset + prev.length, item.offset + item.length];
  else if (next !== undefined) [from, to] = [item.offset, next.offset];
  return text.slice(0, from) + text.slice(to);
}

/** The array at `path`, or undefined when absent; anything else there is an error (never overwritten). */
function arrayAt(root: Node, path: JSONPath, file: string): Node | undefined {
  for (let i = 1; i < path.length; i++) {
    const parent = findNodeAtLocation(root, path.slice(0, i));
    if (parent !== undefined && parent.type !== "object")
      throw new ConfigEditError(`${file}: ${path.slice(0, i).join(".")} is not an object, so it is left alone`);
  }
  const node = findNodeAtLocation(root, path);
  if (node === undefined) return undefined;
  if (node.type !== "array")
    throw new ConfigEditError(`${file}: ${path.join(".")} is not an array, so it is left alone`);
  return node;
}

function isCatchAll(group: unknown): boolean {
  if (typeof group !== "object" || group === null) return false;
  const m = (group as { matcher?: unknown }).matcher;
  return m === undefined || m === "" || m === "*";
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

interface Occurrence {
  readonly group: number;
  readonly hook: number;
  readonly groupHooks: number;
  readonly groupAllOurs: boolean;
  readonly catchAll: boolean;
  readonly value: unknown;
}

function occurrences(groups: Node, isOurs: (hook: unknown) => boolean): Occurrence[] {
  const found: Occurrence[] = [];
  (groups.children ?? []).forEach((g, gi) => {
    const group: unknown = getNodeValue(g);
    const hooks = (group as { hooks?: unknown } | null)?.hooks;
    if (!Array.isArray(hooks)) return;
    const ours = hooks.map((h) => isOurs(h));
    ours.forEach((o, hi) => {
      if (o)
        found.push({
          group: gi,
          hook: hi,
          groupHooks: hooks.length,
          groupAllOurs: ours.every(Boolean),
          catchAll: isCatchAll(group),
          value: hooks[hi],
        });
    });
  });
  return found;
}

/**
 * Removes array elements one edit at a time, each on a fresh parse (indexes shift after an edit): `next` names
 * the array and index of the next element to go, or undefined when nothing more should. Empty text is `{}`.
 */
function removeExtras(text: string, file: string, next: (t: string) => [JSONPath, number] | undefined): string {
  let t = text.trim() === "" ? "{}\n" : text;
  for (let step = next(t); step !== undefined; step = next(t)) {
    const after = removeElement(t, file, step[0], step[1]);
    if (after === t) throw new Error(`${file}: could not remove a duplicate Toolgate hook entry`);
    t = after;
  }
  return t;
}

/**
 * Claude Code's and Gemini CLI's shape: `event: [{matcher, hooks: [entry…]}…]`. Leaves one Toolgate
 * `entry`, in a group matching every tool (`matcher: "*"`).
 */
export function mergeGroupedHook(
  text: string,
  file: string,
  event: JSONPath,
  entry: Record<string, unknown>,
  isOurs: (hook: unknown) => boolean,
): string {
  // Every Toolgate entry but the keeper goes; a group left with only ours goes whole.
  const t = removeExtras(text, file, (now) => {
    const groups = arrayAt(tree(now, file), event, file);
    if (groups === undefined) return undefined;
    const occ = occurrences(groups, isOurs);
    const keeper = occ.find((o) => o.catchAll);
    const extra = occ.filter((o) => o !== keeper);
    const last = extra[extra.length - 1];
    if (last === undefined) return undefined;
    const wholeGroup = last.groupAllOurs && last.groupHooks === extra.filter((o) => o.group === last.group).length;
    return wholeGroup ? [event, last.group] : [[...event, last.group, "hooks"], last.hook];
  });
  const groups = arrayAt(tree(t, file), event, file);
  const keeper = groups === undefined ? undefined : occurrences(groups, isOurs).find((o) => o.catchAll);
  if (keeper !== undefined) {
    if (sameJson(keeper.value, entry)) return t;
    return set(t, [...event, keeper.group, "hooks", keeper.hook], entry);
  }
  const group = { matcher: "*", hooks: [entry] };
  return groups === undefined ? set(t, event, [group]) : set(t, [...event, -1], group, true);
}

/** Cursor's shape: `event: [entry…]`. Leaves one Toolgate entry, in place of the first. */
export function mergeFlatHook(
  text: string,
  file: string,
  event: JSONPath,
  entry: Record<string, unknown>,
  isOurs: (hook: unknown) => boolean,
): string {
  const t = removeExtras(text, file, (now) => {
    const ours = (arrayAt(tree(now, file), event, file)?.children ?? []).map((n) => isOurs(getNodeValue(n)));
    const last = ours.lastIndexOf(true);
    return last > ours.indexOf(true) ? [event, last] : undefined;
  });
  const list = arrayAt(tree(t, file), event, file);
  const first = (list?.children ?? []).findIndex((n) => isOurs(getNodeValue(n)));
  if (list === undefined) return set(t, event, [entry]);
  if (first === -1) return set(t, [...event, -1], entry, true);
  const node = list.children?.[first];
  if (node !== undefined && sameJson(getNodeValue(node), entry)) return t;
  return set(t, [...event, first], entry);
}

/** Sets `path` to `value` only where it is absent (Cursor's `version`). */
export function setIfAbsent(text: string, file: string, path: JSONPath, value: unknown): string {
  const t = text.trim() === "" ? "{}\n" : text;
  return findNodeAtLocation(tree(t, file), path) === undefined ? set(t, path, value) : t;
}

/** The parsed value of a JSONC settings file for reading (doctor); throws ConfigEditError when it does not parse. */
export function readJsoncObject(text: string, file: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  return getNodeValue(tree(text, file)) as Record<string, unknown>;
}
