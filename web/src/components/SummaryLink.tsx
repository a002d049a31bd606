import { useTranslation } from "react-i18next";
import { Link } from "./placeLinks";
import { useCan } from "../live/permissions";
import { useBusinessToday } from "../live/useBusinessToday";

/**
 * The statement of the month so far by the stream's business date (the test clock's in test
 * mode), for members who may read exports (the statement's section).
 */
export function SummaryLink() {
  const { t } = useTranslation();
  const allowed = useCan("exports");
  const today = useBusinessToday();
  if (!allowed || !today) return null;
  const query = new URLSearchParams({ from: `${today.slice(0, 8)}01`, to: today });
  return (
    <Link to={`/download/summary?${query.toString()}`} className="btn btn-secondary" data-testid="summary-link">
      {t("summary.link")}
    </Link>
  );
}
