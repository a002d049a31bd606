import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { TestDataMarker } from "../../components/CollectionBadges";
import { EmptyState } from "../../components/EmptyState";
import { PageHeader } from "../../components/PageHeader";
import { PageSpinner } from "../../components/Spinner";
import { identityAtom } from "../../live/atoms";
import { usePaymentMethodSettings } from "../../live/usePaymentMethodSettings";
import { PaymentMethodsForm } from "./PaymentMethodsForm";
import "./paymentMethods.css";

export function PaymentMethodsPage() {
  const { t } = useTranslation();
  const view = usePaymentMethodSettings();
  const identity = useAtomValue(identityAtom);
  return (
    <section className="page page-narrow" data-testid="payment-methods-page">
      <PageHeader title={t("paymentMethods.title")} subtitle={t("paymentMethods.subtitle")} actions={identity?.mode === "test" ? <TestDataMarker /> : undefined} />
      {view.state === "loading" ? <PageSpinner label={t("app.loading")} /> : null}
      {view.state === "error" ? <EmptyState title={t(`errors.${view.code}`)} testId="payment-methods-error" /> : null}
      {/* Another merchant or mode starts a fresh form. */}
      {view.state === "ready" ? <PaymentMethodsForm key={`${identity?.merchant.id}:${identity?.mode}`} settings={view.settings} /> : null}
    </section>
  );
}
