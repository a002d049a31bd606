import { useAtom } from "jotai";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useErrorText } from "../../components/useMay";
import { noticeAtom, type Notice as NoticeValue } from "../../live/atoms";

const SHOWN_MS = 6000;

function useNoticeText(notice: NoticeValue): string {
  const { t } = useTranslation();
  // A command refused by role names the role; a connection's notice is not about one.
  const commandError = useErrorText();
  if ("error" in notice) return notice.source === "command" ? commandError(notice.error.code) : t(`errors.${notice.error.code}`);
  return notice.moved.why === "removed" ? t("place.removedFrom", { business: notice.moved.from }) : t("place.notOnTeam");
}

/**
 * The last error from the live connection, shown for a few seconds above everything. Being
 * moved to another business stays until dismissed: the whole screen changed under the
 * person, and they should not have to catch why in six seconds.
 */
export function Notice() {
  const [notice, setNotice] = useAtom(noticeAtom);
  const lingers = notice !== null && "moved" in notice;

  useEffect(() => {
    if (!notice || lingers) return;
    const timer = setTimeout(() => setNotice(null), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [notice, lingers, setNotice]);

  if (!notice) return null;
  return <NoticeToast notice={notice} onDismiss={() => setNotice(null)} />;
}

function NoticeToast({ notice, onDismiss }: { notice: NoticeValue; onDismiss: () => void }) {
  const { t } = useTranslation();
  const text = useNoticeText(notice);
  const moved = "moved" in notice;
  return (
    <div className={moved ? "toast toast-moved" : "toast"} role={moved ? "status" : "alert"} data-testid="notice" data-kind={moved ? notice.moved.why : "error"}>
      <span>{text}</span>
      <button type="button" className="icon-button" aria-label={t("errors.dismiss")} onClick={onDismiss}>
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
