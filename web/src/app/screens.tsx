import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useParams } from "react-router";
import { BackupCodePage } from "../features/auth/BackupCodePage";
import { ForgotPage } from "../features/auth/ForgotPage";
import { LoginPage } from "../features/auth/LoginPage";
import { ResetPage } from "../features/auth/ResetPage";
import { SignupPage } from "../features/auth/SignupPage";
import { VerifyEmailPage } from "../features/auth/VerifyEmailPage";
import { BusinessInfoPage } from "../features/business/BusinessInfoPage";
import { CardsPage } from "../features/cards/CardsPage";
import { CustomerDetailPage } from "../features/customers/CustomerDetailPage";
import { CustomersPage } from "../features/customers/CustomersPage";
import { ErrorView, NotFoundPage } from "../features/errors/ErrorPage";
import { HistoryEntryPage } from "../features/history/HistoryEntryPage";
import { HistoryPage } from "../features/history/HistoryPage";
import { HomePage } from "../features/home/HomePage";
import { ImportAction } from "../features/imports/ImportAction";
import { ImportPage } from "../features/imports/ImportPage";
import { ImportsList } from "../features/imports/ImportsList";
import { MandateDetailPage } from "../features/mandates/MandateDetailPage";
import { MandatesPage } from "../features/mandates/MandatesPage";
import { OrdersPage } from "../features/orders/OrdersPage";
import { PayPagesPage } from "../features/payPages/PayPagesPage";
import { PaymentMethodsPage } from "../features/paymentMethods/PaymentMethodsPage";
import { PaymentDetailPage } from "../features/payments/PaymentDetailPage";
import { PaymentsPage } from "../features/payments/PaymentsPage";
import { NotBuiltAuthCard, NotBuiltPage } from "../features/placeholders/NotBuiltPage";
import { ProfilePage } from "../features/profile/ProfilePage";
import { TransactionDetailPage } from "../features/transactions/TransactionDetailPage";
import { TransactionsPage } from "../features/transactions/TransactionsPage";
import { setLanguage } from "./i18n";
import { ThemeChoice } from "./shell/ThemeChoice";
import { useForcedTheme } from "./theme";
import { paramsAreValid, type RouteEntry, type Screen } from "./routes";

const BUILT: Partial<Record<Screen, () => ReactNode>> = {
  home: () => <HomePage />,
  login: () => <LoginPage />,
  signup: () => <SignupPage />,
  forgot: () => <ForgotPage />,
  reset: () => <ResetPage />,
  twoFactorBackup: () => <BackupCodePage />,
  emailVerify: () => <VerifyEmailPage />,
  profile: () => <ProfilePage themeChoice={<ThemeChoice />} onLanguageSaved={(language) => void setLanguage(language)} />,
  businessInfo: () => <BusinessInfoPage />,
  customers: () => <CustomersPage />,
  customer: () => <CustomerDetailPage />,
  oneTime: () => <PaymentsPage kind="once" key="once" moreActions={<ImportAction kind="once" />} aboveList={<ImportsList kind="once" />} />,
  oneTimePayment: () => <PaymentDetailPage kind="once" />,
  oneTimeImport: () => <ImportPage kind="once" key="once" notFound={<NotFoundPage />} />,
  recurring: () => (
    <PaymentsPage kind="recurring" key="recurring" moreActions={<ImportAction kind="recurring" />} aboveList={<ImportsList kind="recurring" />} />
  ),
  recurringPayment: () => <PaymentDetailPage kind="recurring" />,
  recurringImport: () => <ImportPage kind="recurring" key="recurring" notFound={<NotFoundPage />} />,
  mandates: () => <MandatesPage key="mandates" />,
  mandate: () => <MandateDetailPage />,
  eMandates: () => <MandatesPage eMandates key="e-mandates" />,
  paymentMethods: () => <PaymentMethodsPage />,
  transactions: () => <TransactionsPage />,
  transaction: () => <TransactionDetailPage />,
  paymentPages: () => <PayPagesPage />,
  orders: () => <OrdersPage />,
  cards: () => <CardsPage />,
  history: () => <HistoryPage />,
  historyEntry: () => <HistoryEntryPage />,
};

function Placeholder({ entry }: { entry: RouteEntry }) {
  const { t } = useTranslation();
  const title = t(`screens.${entry.screen}`);
  if (entry.layout === "auth") return <NotBuiltAuthCard title={title} />;
  if (entry.layout === "none") return <BarePlaceholder title={title} />;
  return <NotBuiltPage title={title} />;
}

// Pages without the app frame are made to print or save: always light.
function BarePlaceholder({ title }: { title: string }) {
  useForcedTheme("light");
  return (
    <div className="bare-page">
      <NotBuiltPage title={title} />
    </div>
  );
}

/** The screen of one route; a malformed id or token shows the not-found page instead. */
export function RouteScreen({ entry }: { entry: RouteEntry }) {
  const params = useParams();
  const { pathname } = useLocation();
  if (!paramsAreValid(params)) return <ErrorView variant="not-found" path={pathname} />;
  return BUILT[entry.screen]?.() ?? <Placeholder entry={entry} />;
}
