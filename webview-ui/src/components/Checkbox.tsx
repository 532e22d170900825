/**
 * Our checkbox, backed by <vscode-checkbox>. It is controlled by host state: the wrapper re-applies `checked`
 * on every render, so a click whose settings write failed does not leave the box showing a state the
 * settings do not have. The element also fires `change` when `checked` is set from props; only a change
 * away from the latest prop is a person's click.
 */
import { useRef, type ReactNode } from "react";
import { VSCodeCheckbox } from "@vscode/webview-ui-toolkit/react";

export interface CheckboxProps {
  readonly checked: boolean;
  readonly onChange: (checked: boolean) => void;
  readonly children: ReactNode;
  readonly disabled?: boolean;
  /** Id of an element describing the box (e.g. why it is disabled). */
  readonly describedBy?: string;
  readonly className?: string;
}

export function Checkbox({ checked, onChange, children, disabled, describedBy, className }: CheckboxProps) {
  const latest = useRef(checked);
  latest.current = checked;
  return (
    <VSCodeCheckbox
      checked={checked}
      disabled={disabled}
      aria-describedby={describedBy}
      className={className}
      onChange={(e: Event | React.FormEvent) => {
        const next = (e.target as HTMLInputElement).checked;
        if (next !== latest.current) onChange(next);
      }}
    >
      {children}
    </VSCodeCheckbox>
  );
}
