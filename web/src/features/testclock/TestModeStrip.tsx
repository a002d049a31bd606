import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { identityAtom } from "../../live/atoms";
import { TestClock } from "./TestClock";
import "./testclock.css";

/** An amber strip under the header whenever the tab shows test data, with the test clock. */
export function TestModeStrip() {
  const { t } = useTranslation();
  const identity = useAtomValue(identityAtom);
  if (identity?.mode !== "test") return null;
  return (
    <div className="test-strip" role="region" aria-label={t("testClock.strip.label")} data-testid="test-strip">
      <p className="test-strip-text">
        <strong>{t("testClock.strip.title")}</strong> {t("testClock.strip.body")}
      </p>
      <TestClock />
    </div>
  );
}
