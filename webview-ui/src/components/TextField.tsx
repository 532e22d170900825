/**
 * Our single-line field: a native <input> with its label above, drawn as VS Code's input (controls.css).
 * `onCommit` fires on the input's native `change` (Enter or blur), not per keystroke, so a setting is written
 * once per edit. The shown text follows the `value` prop whenever the prop changes; a refused edit stays
 * visible (with `invalid` saying why) until the person edits it again.
 */
import { useEffect, useRef, type ReactNode } from "react";

export interface TextFieldProps {
  readonly value: string;
  readonly onCommit: (value: string) => void;
  readonly children: ReactNode;
  readonly disabled?: boolean;
  readonly placeholder?: string;
  readonly size?: number;
  readonly invalid?: string;
}

export function TextField({ value, onCommit, children, disabled, placeholder, size, invalid }: TextFieldProps) {
  const input = useRef<HTMLInputElement>(null);
  const commit = useRef(onCommit);
  commit.current = onCommit;

  useEffect(() => {
    const el = input.current;
    if (el && el.value !== value) el.value = value;
  }, [value]);

  useEffect(() => {
    const el = input.current;
    if (!el) return;
    const onChange = (): void => commit.current(el.value);
    el.addEventListener("change", onChange);
    return () => el.removeEventListener("change", onChange);
  }, []);

  return (
    <label className="tg-field">
      <span className="tg-field-label">{children}</span>
      <input
        ref={input}
        type="text"
        className="tg-field-input"
        defaultValue={value}
        disabled={disabled}
        placeholder={placeholder}
        size={size}
        aria-invalid={invalid ? "true" : undefined}
        title={invalid}
      />
    </label>
  );
}
