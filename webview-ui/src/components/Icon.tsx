/** A codicon (dist/codicon.css). Decorative: hidden from screen readers; give the control its own label. */
export function Icon({
  name,
  spin,
  slot,
  className,
}: {
  readonly name: string;
  readonly spin?: boolean;
  readonly slot?: string;
  readonly className?: string;
}) {
  const cls = `codicon codicon-${name}${spin ? " codicon-modifier-spin" : ""}${className ? ` ${className}` : ""}`;
  return <span className={cls} aria-hidden="true" slot={slot} />;
}
