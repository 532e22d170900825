/**
 * The shim log (format in shim.c) as records, with who started whom: a record's parent is the latest earlier
 * record of the same process (an `exec` chain: `env ls`, a script's interpreter) or else of its nearest
 * ancestor process. Records with no parent were started by the line's own bash (or its subshells).
 */
import * as path from "node:path";

export interface ExecRecord {
  readonly index: number;
  readonly pid: number;
  readonly ancestors: readonly number[];
  /** The shim's own path (`/usr/bin/rm` however the line spelled it). */
  readonly exe: string;
  readonly program: string;
  readonly cwd: string;
  readonly argv: readonly string[];
  parent: ExecRecord | undefined;
  /** The interpreter of its parent's script (`/bin/sh /.real/usr/bin/egrep ...`): part of the parent. */
  interpreter: boolean;
}

export function parseLog(log: Buffer): ExecRecord[] {
  const out: ExecRecord[] = [];
  let i = 0;
  const line = () => {
    const nl = log.indexOf(10, i);
    if (nl < 0) throw new Error("truncated shim log");
    const text = log.subarray(i, nl).toString("latin1");
    i = nl + 1;
    return text;
  };
  while (i < log.length) {
    const head = line().split(" ");
    if (head[0] !== "R" || head.length !== 3) throw new Error(`bad shim record header ${head.join(" ")}`);
    const n = Number(head[2]);
    const fields: string[] = [];
    for (let k = 0; k < n; k++) {
      const len = Number(line());
      fields.push(log.subarray(i, i + len).toString("utf8"));
      i += len + 1;
    }
    const [anc = "", exe = "", cwd = "", ...argv] = fields;
    out.push({
      index: out.length,
      pid: Number(head[1]),
      ancestors: anc === "" ? [] : anc.split(" ").map(Number),
      exe,
      program: path.basename(exe),
      cwd,
      argv,
      parent: undefined,
      interpreter: false,
    });
  }
  const lastOfPid = new Map<number, ExecRecord>();
  for (const r of out) {
    const same = lastOfPid.get(r.pid);
    if (same) {
      r.parent = same;
      r.interpreter = r.argv.some((a) => a === "/.real" + same.exe);
    } else
      for (const a of r.ancestors) {
        const hit = lastOfPid.get(a);
        if (hit) {
          r.parent = hit;
          break;
        }
      }
    lastOfPid.set(r.pid, r);
  }
  return out;
}

export function showRecord(r: ExecRecord): string {
  return `${r.exe} ${JSON.stringify(r.argv.slice(1))} (cwd ${r.cwd}${r.parent ? `, started by ${r.parent.program}` : ""})`;
}
