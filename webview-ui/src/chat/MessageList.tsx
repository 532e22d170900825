/**
 * The task's messages as a windowed feed: only rows near the viewport are in the DOM, so a 2,000-message
 * task renders and streams as cheaply as a short one. Row heights are measured with one ResizeObserver and
 * cached per message id; unmeasured rows use an estimate. While the person is at the bottom the list follows
 * new output; scrolling up stops following and shows a "Jump to latest" button. A model turn's token counts
 * are folded into its last row (turnUsage.ts) rather than taking a row of their own.
 */
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { TaskMessage } from "../../../src/shared/messages";
import { Button } from "../components";
import { Row, rowLabel } from "../rows/Row";
import { foldTurns, type Usage } from "./turnUsage";
import { computeWindow } from "./virtualWindow";

export const ESTIMATED_ROW = 64;
const OVERSCAN_PX = 600;
/** Without layout (jsdom) clientHeight is 0: assume a typical panel height. */
const FALLBACK_VIEWPORT = 800;
const BOTTOM_SLACK = 24;

interface SlotProps {
  readonly message: TaskMessage;
  readonly pos: number;
  readonly size: number;
  readonly observer: ResizeObserver | undefined;
  readonly usage: Usage | undefined;
}

const Slot = memo(function Slot({ message, pos, size, observer, usage }: SlotProps) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !observer) return undefined;
    observer.observe(el);
    return () => observer.unobserve(el);
  }, [observer]);
  return (
    <div
      ref={ref}
      className="tg-slot"
      data-id={message.id}
      role="article"
      aria-posinset={pos}
      aria-setsize={size}
      aria-label={rowLabel(message)}
    >
      <Row message={message} {...(usage ? { usage } : {})} />
    </div>
  );
});

export function MessageList({
  messages: all,
  busy,
}: {
  readonly messages: readonly TaskMessage[];
  readonly busy: boolean;
}) {
  const { rows: messages, usage } = useMemo(() => foldTurns(all), [all]);
  const scroller = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<number, number>());
  const follow = useRef(true);
  const [following, setFollowing] = useState(true);
  const [viewport, setViewport] = useState({ top: 0, height: 0 });
  const [, setMeasureTick] = useState(0);

  const observer = useMemo(
    () =>
      typeof ResizeObserver === "undefined"
        ? undefined
        : new ResizeObserver((entries) => {
            let changed = false;
            for (const e of entries) {
              const el = e.target as HTMLElement;
              const id = Number(el.dataset.id);
              const h = Math.round(e.borderBoxSize?.[0]?.blockSize ?? el.offsetHeight);
              if (h > 0 && heights.current.get(id) !== h) {
                heights.current.set(id, h);
                changed = true;
              }
            }
            if (changed) setMeasureTick((t) => t + 1);
          }),
    [],
  );
  useEffect(() => () => observer?.disconnect(), [observer]);

  const readViewport = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    setViewport((v) =>
      v.top === el.scrollTop && v.height === el.clientHeight ? v : { top: el.scrollTop, height: el.clientHeight },
    );
  }, []);

  // Following stops only when the person scrolls up (scrollTop decreases) and resumes at the bottom. Scroll
  // events arrive a frame late, after rows may have been measured and grown, so "not at the bottom" alone
  // would wrongly stop following while new output streams in.
  const lastTop = useRef(0);
  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const top = el.scrollTop;
    const atBottom = el.scrollHeight - top - el.clientHeight <= BOTTOM_SLACK;
    if (atBottom) follow.current = true;
    else if (top < lastTop.current - 1) follow.current = false;
    lastTop.current = top;
    setFollowing(follow.current);
    readViewport();
  }, [readViewport]);

  useLayoutEffect(() => {
    readViewport();
    const el = scroller.current;
    if (!el || typeof ResizeObserver === "undefined") return undefined;
    const ro = new ResizeObserver(() => {
      if (follow.current) {
        el.scrollTop = el.scrollHeight;
        lastTop.current = el.scrollTop;
      }
      readViewport();
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [readViewport]);

  const rowHeights = new Float64Array(messages.length);
  for (let i = 0; i < messages.length; i++) rowHeights[i] = heights.current.get(messages[i]!.id) ?? ESTIMATED_ROW;
  const win = computeWindow({
    heights: rowHeights,
    scrollTop: viewport.top,
    viewportHeight: viewport.height || FALLBACK_VIEWPORT,
    overscan: OVERSCAN_PX,
    followBottom: follow.current,
  });

  // After every render: keep the newest output in view while following.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && follow.current && el.scrollHeight - el.scrollTop - el.clientHeight > 1) {
      el.scrollTop = el.scrollHeight;
      lastTop.current = el.scrollTop;
    }
  });

  const jumpToLatest = () => {
    const el = scroller.current;
    follow.current = true;
    setFollowing(true);
    if (el) {
      el.scrollTop = el.scrollHeight;
      lastTop.current = el.scrollTop;
    }
  };

  const rows: React.ReactNode[] = [];
  for (let i = win.start; i < win.end; i++) {
    const m = messages[i]!;
    rows.push(
      <Slot key={m.id} message={m} pos={i + 1} size={messages.length} observer={observer} usage={usage.get(m.id)} />,
    );
  }

  return (
    <div className="tg-list-wrap">
      <div ref={scroller} className="tg-list" tabIndex={0} aria-label="Task messages" onScroll={onScroll}>
        <div
          role="feed"
          aria-busy={busy}
          aria-label="Task messages"
          style={{ paddingTop: win.padTop, paddingBottom: win.padBottom }}
        >
          {rows}
        </div>
      </div>
      {!following ? (
        <div className="tg-jump">
          <Button appearance="secondary" icon="arrow-down" onClick={jumpToLatest}>
            Jump to latest
          </Button>
        </div>
      ) : null}
    </div>
  );
}
