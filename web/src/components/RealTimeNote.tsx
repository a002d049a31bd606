import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { identityAtom } from "../live/atoms";

/**
 * In test mode, says that the times on this screen are real time. Test records (customers,
 * payments, orders, the history) are stamped by the test clock, so a screen of times that guard
 * access or record real deliveries (tokens, webhook attempts, the team's sign-ins) says which
 * clock it is on. Live mode has one clock and shows nothing.
 */
export function RealTimeNote() {
  const { t } = useTranslation();
  const identity = useAtomValue(identityAtom);
  if (identity?.mode !== "test") return null;
  return (
    <p className="field-hint real-time-note" data-testid="real-time-note">
      {t("testClock.realTime")}
    </p>
  );
}
