type ProgressBarProps = { value: number; max: number; label: string; text?: string; testId?: string };

/** A bar with its figures beside it; the figures are what a screen reader hears. */
export function ProgressBar({ value, max, label, text, testId }: ProgressBarProps) {
  const share = max > 0 ? Math.min(1, value / max) : 1;
  return (
    <div className="progress" data-testid={testId}>
      <div
        className="progress-track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={Math.min(value, max)}
        aria-valuetext={text}
      >
        <div className="progress-fill" style={{ width: `${(share * 100).toFixed(1)}%` }} />
      </div>
      {text ? <span className="progress-text">{text}</span> : null}
    </div>
  );
}
