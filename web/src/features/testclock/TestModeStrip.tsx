import { useAtomValue } from "jotai";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { identityAtom } from "../../live/atoms";
import { TestClock } from "./TestClock";
import "./testclock.css";

/** An amber strip under the header whenever the tab shows test data, with the test clock. */
export function TestModeStrip() {
  const { t } = useTranslation();
  const identity = useAtomValue(identityAtom);
  // On a phone the strip folds to its title and the test date, the rest one tap away, so it
  // does not take a third of the screen; wider screens show it all (see testclock.css).
  const [unfolded, setUnfolded] = useState(false);
  const clockId = useId();
  if (identity?.mode !== "test") return null;
  return (
    <div className={unfolded ? "test-strip" : "test-strip test-strip-folded"} role="region" aria-label={t("testClock.strip.label")} data-testid="test-strip">
      <p className="test-strip-text">
        <strong>{t("testClock.strip.title")}</strong> <span className="test-strip-body">{t("testClock.strip.body")}</span>
      </p>
      <TestClock id={clockId} />
      <button type="button" className="test-clock-button test-strip-toggle" aria-expanded={unfolded} aria-controls={clockId} onClick={() => setUnfolded(!unfolded)} data-testid="test-strip-toggle">
        {t("testClock.title")} <span aria-hidden="true">{unfolded ? "▴" : "▾"}</span>
      </button>
    </div>
  );
}
