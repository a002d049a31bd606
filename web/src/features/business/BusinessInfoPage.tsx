import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../components/EmptyState";
import { PageHeader } from "../../components/PageHeader";
import { PageSpinner } from "../../components/Spinner";
import { identityAtom } from "../../live/atoms";
import { BusinessInfoForm } from "./BusinessInfoForm";
import { TwoFactorPolicyCard } from "./TwoFactorPolicyCard";
import { useBusinessInfo } from "./useBusinessInfo";
import "./business.css";

export function BusinessInfoPage() {
  const { t } = useTranslation();
  const view = useBusinessInfo();
  const identity = useAtomValue(identityAtom);
  return (
    <section className="page page-narrow" data-testid="business-info-page">
      <PageHeader title={t("business.title")} subtitle={t("business.subtitle")} />
      {view.state === "loading" ? <PageSpinner label={t("app.loading")} /> : null}
      {view.state === "error" ? <EmptyState title={t(`errors.${view.code}`)} testId="business-info-error" /> : null}
      {view.state === "ready" ? (
        <div className="settings-stack">
          {/* A merchant switch starts a fresh form: nothing typed for one business lands in another. */}
          <BusinessInfoForm key={identity?.merchant.id} info={view.info} />
          <TwoFactorPolicyCard required={view.twoFactorRequired} isOwner={identity?.merchant.role === "owner"} />
        </div>
      ) : null}
    </section>
  );
}
