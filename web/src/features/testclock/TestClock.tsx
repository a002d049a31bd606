import { useId } from "react";
import { useTranslation } from "react-i18next";
import { formatBusinessDate } from "../../components/format";
import type { ClockStep } from "../../protocol/wire";
import { useTestClock } from "./useTestClock";

const STEPS: ClockStep[] = ["day", "week", "month"];

/** Shows the test business date and moves it on; the span plays out live in every tab. */
export function TestClock() {
  const { t, i18n } = useTranslation();
  const clock = useTestClock();
  const hintId = useId();
  return (
    <div className="test-clock" role="group" aria-label={t("testClock.title")} aria-describedby={hintId} data-testid="test-clock">
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
            onClick={() => clock.advance(step)}
            data-testid={`clock-${step}`}
          >
            {t(`testClock.step.${step}`)}
          </button>
        ))}
      </span>
      <span className="test-clock-status" aria-live="polite" data-testid="test-clock-status">
        {clock.playingTo ? t("testClock.playing", { date: formatBusinessDate(clock.playingTo, i18n.language) }) : null}
        {clock.error ? <span className="test-clock-error">{t(`errors.${clock.error.code}`)}</span> : null}
      </span>
      <span id={hintId} className="test-clock-hint">
        {t("testClock.hint")}
      </span>
    </div>
  );
}
