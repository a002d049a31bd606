import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { formatDateTime } from "../../components/format";
import { Spinner } from "../../components/Spinner";
import { useCan } from "../../live/permissions";
import { useMemberActivity } from "./useMemberActivity";

/** A member's latest steps from the account history (live), each linking to its entry. */
export function MemberActivity({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const mayRead = useCan("history", "read");
  return (
    <section className="card member-activity" aria-labelledby="member-activity-title" data-testid="member-activity">
      <h2 className="team-section-title" id="member-activity-title">
        {t("teams.activity.title")}
      </h2>
      {mayRead ? <ActivityList userId={userId} /> : <p className="card-empty">{t("teams.activity.noAccess")}</p>}
    </section>
  );
}

function ActivityList({ userId }: { userId: string }) {
  const { t, i18n } = useTranslation();
  const loaded = useMemberActivity(userId);
  if (!loaded) return <Spinner label={t("app.loading")} />;
  if ("error" in loaded) return <Alert>{t(`errors.${loaded.error}`)}</Alert>;
  if (loaded.items.length === 0) return <p className="card-empty">{t("teams.activity.none")}</p>;
  return (
    <>
      <ul className="member-activity-list">
        {loaded.items.map((entry) => (
          <li key={entry.id} data-testid="member-activity-entry">
            <Link to={`/account/history/${entry.id}`} className="table-link">
              {t(`accountHistory.action.${entry.action}`)} · {t(`accountHistory.record.${entry.recordKind}`, { defaultValue: entry.recordKind })}
            </Link>
            <span className="cell-sub">
              {formatDateTime(entry.at, i18n.language)}
              {entry.address ? ` · ${entry.address}` : ""}
            </span>
          </li>
        ))}
      </ul>
      <Link to={`/account/history?person=${encodeURIComponent(userId)}`} className="link" data-testid="member-activity-all">
        {t("teams.activity.all")}
      </Link>
    </>
  );
}
