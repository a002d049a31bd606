import type { Need } from "../live/access";
import { useMay } from "./useMay";

type SwitchProps = {
  checked: boolean;
  onChange: (checked: boolean) => void;
  labelledBy: string;
  /** For a `<label htmlFor>` beside it, so a click on the words turns it too. */
  id?: string;
  busy?: boolean;
  testId?: string;
  /** What the member's role must allow to turn it (see `Button`). */
  needs?: Need;
};

/** An on/off switch: a button with the switch role, so it reads and works like one. */
export function Switch({ checked, onChange, labelledBy, id, busy = false, testId, needs }: SwitchProps) {
  const may = useMay(needs);
  return (
    <button
      type="button"
      id={id}
      role="switch"
      aria-checked={checked}
      aria-labelledby={labelledBy}
      aria-busy={busy || undefined}
      aria-disabled={may.allowed ? undefined : true}
      title={may.reason}
      disabled={busy}
      className={checked ? "switch switch-on" : "switch"}
      onClick={() => (may.allowed ? onChange(!checked) : undefined)}
      data-testid={testId}
      data-needs={needs}
    >
      <span className="switch-thumb" aria-hidden="true" />
    </button>
  );
}
