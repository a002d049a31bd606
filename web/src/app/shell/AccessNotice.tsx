import { useAtom } from "jotai";
import { useTranslation } from "react-i18next";
import { roleLabel } from "../../components/useMay";
import { accessChangeAtom } from "../../live/atoms";

/**
 * Says at once that the member's role on this business changed while the tab was open: the
 * controls it no longer allows are refused from now on, and that should not come as a surprise.
 * It stays until dismissed, since it explains every screen after it.
 */
export function AccessNotice() {
  const { t } = useTranslation();
  const [change, setChange] = useAtom(accessChangeAtom);
  if (!change) return null;
  const role = roleLabel(change.merchant, t);
  return (
    <div className="banner banner-warning" role="status" data-testid="access-notice" data-role={change.merchant.role}>
      <svg viewBox="0 0 24 24" className="icon banner-icon" aria-hidden="true">
        <circle cx="12" cy="8" r="4" />
        <path d="M4 21c0-4 4-6 8-6s8 2 8 6" />
      </svg>
      <p className="banner-text">
        <strong data-testid="access-notice-text">{change.t === "role" ? t("access.changed.role", { role }) : t("access.changed.grants", { role })}</strong>{" "}
        <span className="banner-detail">{t("access.changed.hint")}</span>
      </p>
      <button type="button" className="icon-button" aria-label={t("access.changed.dismiss")} onClick={() => setChange(null)} data-testid="access-notice-dismiss">
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
