import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { identityAtom } from "../live/atoms";

/**
 * For a record page that found nothing: test and live data are apart, and a new tab starts on
 * live data, so a test record's link opened there finds nothing. Says where else to look.
 */
export function useOtherModeHint(): string {
  const { t } = useTranslation();
  const mode = useAtomValue(identityAtom)?.mode;
  return mode === "test" ? t("app.notFoundInTest") : t("app.notFoundInLive");
}
