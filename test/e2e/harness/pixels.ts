/**
 * "Is anything drawn here?" for screenshots: decodes a PNG (8-bit greyscale, RGB or RGBA, non-interlaced, as
 * Chromium writes them) with node's zlib and measures how much its pixels vary. A blank or single-colour area
 * has a standard deviation near 0; rendered text and controls give several units at least.
 */
import { inflateSync } from "node:zlib";

export interface PixelStats {
  readonly width: number;
  readonly height: number;
  /** Standard deviation of luminance (0–255) over all pixels. */
  readonly stddev: number;
  /** Share of pixels that differ from the most common colour by more than 24 (of 255) in luminance. */
  readonly inked: number;
}

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 6: 4 };

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export function pixelStats(png: Buffer): PixelStats {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error("not a PNG");
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString("latin1", at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const depth = body[8];
      channels = CHANNELS[body[9] ?? -1] ?? 0;
      if (depth !== 8 || channels === 0 || body[12] !== 0) throw new Error("unsupported PNG format");
    } else if (type === "IDAT") data.push(body);
    else if (type === "IEND") break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const lum = new Uint8Array(width * height);
  let prev = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const cur = new Uint8Array(stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? cur[x - channels]! : 0;
      const b = prev[x]!;
      const c = x >= channels ? prev[x - channels]! : 0;
      const pred =
        filter === 1 ? a : filter === 2 ? b : filter === 3 ? (a + b) >> 1 : filter === 4 ? paeth(a, b, c) : 0;
      cur[x] = (line[x]! + pred) & 0xff;
    }
    for (let x = 0; x < width; x++) {
      const p = x * channels;
      lum[y * width + x] =
        channels === 1 ? cur[p]! : Math.round(0.299 * cur[p]! + 0.587 * cur[p + 1]! + 0.114 * cur[p + 2]!);
    }
    prev = cur;
  }
  const histogram = new Array<number>(256).fill(0);
  let sum = 0;
  for (const v of lum) {
    histogram[v]!++;
    sum += v;
  }
  const mean = sum / lum.length;
  let squares = 0;
  for (const v of lum) squares += (v - mean) ** 2;
  const common = histogram.indexOf(Math.max(...histogram));
  let inked = 0;
  for (let v = 0; v < 256; v++) if (Math.abs(v - common) > 24) inked += histogram[v]!;
  return { width, height, stddev: Math.sqrt(squares / lum.length), inked: inked / lum.length };
}
