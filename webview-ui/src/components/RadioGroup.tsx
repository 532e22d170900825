/** Our radio group, backed by <vscode-radio-group>. Arrow keys move between options (toolkit behaviour). */
import { useRef } from "react";
import { VSCodeRadio, VSCodeRadioGroup } from "@vscode/webview-ui-toolkit/react";

export interface RadioOption<T extends string> {
  readonly value: T;
  readonly label: string;
}

export interface RadioGroupProps<T extends string> {
  readonly label: string;
  readonly value: T;
  readonly options: readonly RadioOption<T>[];
  readonly onChange: (value: T) => void;
  readonly disabled?: boolean;
  readonly orientation?: "horizontal" | "vertical";
}

export function RadioGroup<T extends string>({
  label,
  value,
  options,
  onChange,
  disabled,
  orientation = "horizontal",
}: RadioGroupProps<T>) {
  const latest = useRef(value);
  latest.current = value;
  return (
    <VSCodeRadioGroup
      value={value}
      disabled={disabled}
      orientation={orientation}
      onChange={(e: Event | React.FormEvent) => {
        // Depending on the DOM, the selection arrives as the group's change event or as a radio's (which bubble
        // in some environments). A radio that was just unchecked also fires one: it must not count as a choice,
        // or two radios would flip each other forever.
        const t = e.target as HTMLElement & { value: string; checked?: boolean };
        if (t !== e.currentTarget && t.checked !== true) return;
        const next = t.value as T;
        if (next && next !== latest.current && options.some((o) => o.value === next)) onChange(next);
      }}
    >
      <label slot="label">{label}</label>
      {options.map((o) => (
        <VSCodeRadio key={o.value} value={o.value} checked={o.value === value}>
          {o.label}
        </VSCodeRadio>
      ))}
    </VSCodeRadioGroup>
  );
}
