import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { EmptyState } from "../../components/EmptyState";
import { PageHeader } from "../../components/PageHeader";

// The honest state of a screen that later work will fill: no made-up data.
export function NotBuiltPage({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <section className="page" data-testid="not-built">
      <PageHeader title={title} />
      <EmptyState title={t("notBuilt.title")} body={t("notBuilt.body", { screen: title })} />
    </section>
  );
}

export function NotBuiltAuthCard({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <div className="auth-card" data-testid="not-built">
      <h1 className="auth-title">{title}</h1>
      <p className="auth-subtitle">{t("notBuilt.title")}</p>
      <p className="auth-footer">
        <Link to="/auth/login" className="link">
          {t("auth.backToLogin")}
        </Link>
      </p>
    </div>
  );
}
