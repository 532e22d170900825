// @vitest-environment jsdom
import "./support/shims";
import { cleanup, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { MessageList } from "../src/chat/MessageList";
import { computeWindow, rowAt, offsetsOf } from "../src/chat/virtualWindow";
import { message, setup } from "./support/render";

afterEach(cleanup);

describe("windowed message list", () => {
  it("renders a 2,000-message task as a window near the bottom, not 2,000 rows", () => {
    const messages = Array.from({ length: 2000 }, (_, i) => message({ kind: "text", text: `message ${i}` }));
    setup().view(<MessageList messages={messages} busy={false} />);
    const rows = screen.getAllByRole("article");
    expect(rows.length).toBeLessThan(60);
    expect(rows.at(-1)!.getAttribute("aria-posinset")).toBe("2000");
    expect(rows.at(-1)!.getAttribute("aria-setsize")).toBe("2000");
    expect(screen.getByText("message 1999")).toBeTruthy();
    expect(screen.queryByText("message 0")).toBeNull();
  });

  it("short tasks render every row", () => {
    const messages = Array.from({ length: 5 }, (_, i) => message({ kind: "text", text: `m${i}` }));
    setup().view(<MessageList messages={messages} busy />);
    expect(screen.getAllByRole("article")).toHaveLength(5);
    expect(screen.getByRole("feed").getAttribute("aria-busy")).toBe("true");
  });
});

describe("window arithmetic", () => {
  const heights = Array.from({ length: 100 }, () => 50);
  it("finds the rows around the viewport with overscan, and pads the rest", () => {
    const w = computeWindow({ heights, scrollTop: 1000, viewportHeight: 500, overscan: 100, followBottom: false });
    expect([w.start, w.end]).toEqual([18, 33]);
    expect(w.padTop).toBe(900);
    expect(w.padTop + (w.end - w.start) * 50 + w.padBottom).toBe(5000);
  });
  it("following the bottom shows the last rows whatever scrollTop says", () => {
    const w = computeWindow({ heights, scrollTop: 0, viewportHeight: 500, overscan: 0, followBottom: true });
    expect(w.end).toBe(100);
    expect(w.start).toBe(90);
  });
  it("rowAt is a binary search over offsets", () => {
    const o = offsetsOf([10, 20, 30]);
    expect([rowAt(o, 0), rowAt(o, 9), rowAt(o, 10), rowAt(o, 29), rowAt(o, 30), rowAt(o, 1000), rowAt(o, -5)]).toEqual([
      0, 0, 1, 1, 2, 2, 0,
    ]);
  });
});
