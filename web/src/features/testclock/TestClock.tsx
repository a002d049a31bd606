import { useId } from "react";
import { useTranslation } from "react-i18next";
import { formatBusinessDate } from "../../components/format";
import { useErrorText, useMay } from "../../components/useMay";
import type { ClockStep } from "../../protocol/wire";
import { useTestClock } from "./useTestClock";

const STEPS: ClockStep[] = ["day", "week", "month"];

/** Shows the test business date and moves it on; the span plays out live in every tab. */
export function TestClock({ id }: { id?: string }) {
  const { t, i18n } = useTranslation();
  const clock = useTestClock();
  const hintId = useId();
  // Playing days collects payments: the payments section's to do.
  const may = useMay("payments:write");
  const errorText = useErrorText("payments:write");
  return (
    <div className="test-clock" id={id} role="group" aria-label={t("testClock.title")} aria-describedby={hintId} data-testid="test-clock">
      <span className="test-clock-date">
        {t("testClock.today")}{" "}
        <time dateTime={clock.today} data-testid="test-clock-today">
          {clock.today ? formatBusinessDate(clock.today, i18n.language) : t("app.loading")}
        </time>
      </span>
      <span className="test-clock-steps">
        {STEPS.map((step) => (
          <button
            key={step}
            type="button"
            className="test-clock-button"
            disabled={clock.busy || !clock.today}
            aria-disabled={may.allowed ? undefined : true}
            title={may.reason}
            onClick={() => (may.allowed ? clock.advance(step) : undefined)}
            data-testid={`clock-${step}`}
            data-needs="payments:write"
          >
            {t(`testClock.step.${step}`)}
          </button>
        ))}
      </span>
      <span className="test-clock-status" aria-live="polite" data-testid="test-clock-status">
        {clock.playingTo ? t("testClock.playing", { date: formatBusinessDate(clock.playingTo, i18n.language) }) : null}
        {clock.error ? <span className="test-clock-error">{errorText(clock.error.code)}</span> : null}
      </span>
      <span id={hintId} className="test-clock-hint">
        {t("testClock.hint")}
      </span>
    </div>
  );
}
