import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { EmptyState } from "../../components/EmptyState";
import { formatBusinessDate } from "../../components/format";
import { PageHeader } from "../../components/PageHeader";
import { PageSpinner } from "../../components/Spinner";
import { identityAtom } from "../../live/atoms";
import { useCan } from "../../live/permissions";
import { Figures } from "./Figures";
import "./home.css";
import { LiveFeed } from "./LiveFeed";
import { UpcomingList } from "./UpcomingList";
import { useDashboard } from "./useDashboard";
import { Warnings } from "./Warnings";

/** The overview, for a role that includes insights; a role without them is told where to go instead. */
export function HomePage() {
  const mayRead = useCan("insights");
  return mayRead ? <Overview /> : <NoOverview />;
}

function NoOverview() {
  const { t } = useTranslation();
  return (
    <section className="page" data-testid="home-page">
      <PageHeader title={t("home.title")} subtitle={t("home.subtitle")} />
      <EmptyState testId="home-no-access" title={t("home.noAccess.title")} body={t("home.noAccess.body")} />
    </section>
  );
}

function Overview() {
  const { t, i18n } = useTranslation();
  const identity = useAtomValue(identityAtom);
  const { dashboard, error, loading, retry } = useDashboard();
  const subtitle = dashboard
    ? t(identity?.mode === "test" ? "home.businessDateTest" : "home.businessDate", { date: formatBusinessDate(dashboard.today, i18n.language) })
    : t("home.subtitle");

  return (
    <section className="page" data-testid="home-page">
      <PageHeader title={t("home.title")} subtitle={subtitle} />
      {loading ? <PageSpinner label={t("app.loading")} /> : null}
      {error && !dashboard ? (
        <Alert testId="home-error">
          {t(`errors.${error}`)}{" "}
          <Button variant="ghost" className="btn-sm" onClick={retry}>
            {t("home.retry")}
          </Button>
        </Alert>
      ) : null}
      {dashboard ? (
        <>
          <Warnings dashboard={dashboard} />
          <Figures dashboard={dashboard} />
          <div className="home-panels">
            <LiveFeed recent={dashboard.recent} />
            <UpcomingList upcoming={dashboard.upcoming} more={dashboard.upcomingMore} />
          </div>
        </>
      ) : null}
    </section>
  );
}
