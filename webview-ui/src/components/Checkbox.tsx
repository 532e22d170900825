/**
 * Our checkbox: a native <input type="checkbox"> (keyboard, form semantics and the accessible name from its
 * <label> come for free) drawn as VS Code's checkbox (controls.css). It is controlled by host state: React
 * re-applies `checked` after every click, so a click whose settings write failed does not leave the box
 * showing a state the settings do not have.
 */
import type { ReactNode } from "react";

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
  return (
    <label className={`tg-check${disabled ? " tg-disabled" : ""}${className ? ` ${className}` : ""}`}>
      <input
        type="checkbox"
        className="tg-check-input"
        checked={checked}
        disabled={disabled}
        aria-describedby={describedBy}
        onChange={(e) => {
          // A disabled box never changes a setting, whatever event reaches it.
          if (disabled) return;
          if (e.target.checked !== checked) onChange(e.target.checked);
        }}
      />
      <span className="tg-check-box codicon codicon-check" aria-hidden="true" />
      <span className="tg-check-label">{children}</span>
    </label>
  );
}
