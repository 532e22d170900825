/**
 * Keeps a command's output within a cap: the first half of the budget as it came, then a rolling tail, so
 * the model sees how the command started and how it ended. Counts UTF-16 characters (close enough to bytes
 * for a cap, and never splits the text it keeps mid-character).
 */
export class OutputCapture {
  private head = "";
  private tail: string[] = [];
  private tailLength = 0;
  private dropped = 0;
  private readonly headCap: number;
  private readonly tailCap: number;

  constructor(cap: number) {
    this.headCap = Math.floor(cap / 2);
    this.tailCap = cap - this.headCap;
  }

  push(text: string): void {
    if (this.head.length < this.headCap) {
      const room = this.headCap - this.head.length;
      this.head += text.slice(0, room);
      text = text.slice(room);
      if (text === "") return;
    }
    this.tail.push(text);
    this.tailLength += text.length;
    while (this.tailLength > this.tailCap && this.tail.length > 0) {
      const first = this.tail[0]!;
      const excess = this.tailLength - this.tailCap;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailLength -= first.length;
        this.dropped += first.length;
      } else {
        this.tail[0] = first.slice(excess);
        this.tailLength -= excess;
        this.dropped += excess;
      }
    }
  }

  get truncated(): number {
    return this.dropped;
  }

  text(): string {
    const tail = this.tail.join("");
    return this.dropped > 0 ? `${this.head}\n[… ${this.dropped} characters omitted …]\n${tail}` : this.head + tail;
  }
}
