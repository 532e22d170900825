/**
 * Windowing arithmetic for the message list, kept pure so it is tested without layout. Rows have measured
 * heights (or an estimate until measured); only rows intersecting the viewport ± overscan are rendered.
 */

export interface WindowInput {
  /** Height of each row in order (measured or estimated). */
  readonly heights: ArrayLike<number>;
  readonly scrollTop: number;
  readonly viewportHeight: number;
  readonly overscan: number;
  /** Following the bottom: show the last rows whatever scrollTop says (it catches up after layout). */
  readonly followBottom: boolean;
}

export interface WindowResult {
  readonly start: number;
  /** Exclusive. */
  readonly end: number;
  /** Space above the first rendered row and below the last. */
  readonly padTop: number;
  readonly padBottom: number;
  readonly total: number;
}

/** Prefix sums: offsets[i] is the top of row i; offsets[n] the total height. */
export function offsetsOf(heights: ArrayLike<number>): Float64Array {
  const out = new Float64Array(heights.length + 1);
  for (let i = 0; i < heights.length; i++) out[i + 1] = out[i]! + heights[i]!;
  return out;
}

/** The row containing y (the last row whose top is <= y), clamped to [0, n-1]. */
export function rowAt(offsets: Float64Array, y: number): number {
  const n = offsets.length - 1;
  if (n <= 0) return 0;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid]! <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export function computeWindow(input: WindowInput): WindowResult {
  const n = input.heights.length;
  const offsets = offsetsOf(input.heights);
  const total = offsets[n]!;
  if (n === 0) return { start: 0, end: 0, padTop: 0, padBottom: 0, total: 0 };
  const top = input.followBottom
    ? Math.max(0, total - input.viewportHeight)
    : Math.max(0, Math.min(input.scrollTop, total));
  const start = rowAt(offsets, top - input.overscan);
  const end = Math.min(n, rowAt(offsets, top + input.viewportHeight + input.overscan) + 1);
  return { start, end, padTop: offsets[start]!, padBottom: total - offsets[end]!, total };
}
