import { useEffect, useRef, useState, type InputHTMLAttributes } from "react";
import { useDebouncedValue } from "./useDebouncedValue";

type DraftInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange"> & {
  value: string;
  onCommit: (value: string) => void;
  delayMs?: number;
};

/**
 * A text input that hands its value on once typing pauses (search, amounts in the URL).
 * A value changed from outside (back button, "clear") replaces what the field shows.
 */
export function DraftInput({ value, onCommit, delayMs = 350, ...input }: DraftInputProps) {
  const [draft, setDraft] = useState(value);
  const settled = useDebouncedValue(draft, delayMs);
  const committed = useRef(value);

  useEffect(() => {
    if (value !== committed.current) {
      committed.current = value;
      setDraft(value);
    }
  }, [value]);

  // Only a pause in typing hands a value on: a value replaced from outside must not be
  // overwritten by what the field held before it (the debounce still carries that).
  const lastSettled = useRef(settled);
  useEffect(() => {
    if (settled === lastSettled.current) return;
    lastSettled.current = settled;
    if (settled !== committed.current) {
      committed.current = settled;
      onCommit(settled);
    }
  }, [settled, onCommit]);

  return <input {...input} value={draft} onChange={(event) => setDraft(event.target.value)} />;
}
