import { useAtom } from "jotai";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useErrorText } from "../../components/useMay";
import { noticeAtom } from "../../live/atoms";

const SHOWN_MS = 6000;

/** The last error from the live connection, shown for a few seconds above everything. */
export function Notice() {
  const { t } = useTranslation();
  const [notice, setNotice] = useAtom(noticeAtom);
  // A command refused by role names the role; a connection's notice (removed from a team) is not about one.
  const commandError = useErrorText();

  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [notice, setNotice]);

  if (!notice) return null;
  return (
    <div className="toast" role="alert" data-testid="notice">
      <span>{notice.source === "command" ? commandError(notice.error.code) : t(`errors.${notice.error.code}`)}</span>
      <button type="button" className="icon-button" aria-label={t("errors.dismiss")} onClick={() => setNotice(null)}>
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
