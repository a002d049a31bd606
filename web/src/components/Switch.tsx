type SwitchProps = { checked: boolean; onChange: (checked: boolean) => void; labelledBy: string; busy?: boolean; testId?: string };

/** An on/off switch: a button with the switch role, so it reads and works like one. */
export function Switch({ checked, onChange, labelledBy, busy = false, testId }: SwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-labelledby={labelledBy}
      aria-busy={busy || undefined}
      disabled={busy}
      className={checked ? "switch switch-on" : "switch"}
      onClick={() => onChange(!checked)}
      data-testid={testId}
    >
      <span className="switch-thumb" aria-hidden="true" />
    </button>
  );
}
