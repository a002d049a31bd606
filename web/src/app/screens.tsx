import { lazy, Suspense, type ComponentType, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useParams } from "react-router";
import { ErrorView, NotFoundPage } from "../features/errors/ErrorPage";
import { PageSpinner } from "../components/Spinner";
import { useCan } from "../live/permissions";
import { setLanguage } from "./i18n";
import { SignOutHere } from "./shell/SignOutButton";
import { ThemeChoice } from "./shell/ThemeChoice";
import { paramsAreValid, type RouteEntry, type Screen } from "./routes";

// Each screen is its own chunk, fetched when its route is first opened, so the
// first load carries only the shell and the screen in hand.
function screen<M, K extends keyof M>(load: () => Promise<M>, name: K) {
  return lazy(async () => ({ default: (await load())[name] as M[K] & ComponentType }));
}

const BackupCodePage = screen(() => import("../features/auth/BackupCodePage"), "BackupCodePage");
const ForgotPage = screen(() => import("../features/auth/ForgotPage"), "ForgotPage");
const LoginPage = screen(() => import("../features/auth/LoginPage"), "LoginPage");
const ResetPage = screen(() => import("../features/auth/ResetPage"), "ResetPage");
const SignupPage = screen(() => import("../features/auth/SignupPage"), "SignupPage");
const VerifyEmailPage = screen(() => import("../features/auth/VerifyEmailPage"), "VerifyEmailPage");
const BusinessInfoPage = screen(() => import("../features/business/BusinessInfoPage"), "BusinessInfoPage");
const CardsPage = screen(() => import("../features/cards/CardsPage"), "CardsPage");
const CustomerDetailPage = screen(() => import("../features/customers/CustomerDetailPage"), "CustomerDetailPage");
const CustomerMandates = screen(() => import("../features/mandates/CustomerMandates"), "CustomerMandates");
const CustomerPayments = screen(() => import("../features/payments/CustomerPayments"), "CustomerPayments");
const CustomerTransactions = screen(() => import("../features/transactions/CustomerTransactions"), "CustomerTransactions");
const CustomersPage = screen(() => import("../features/customers/CustomersPage"), "CustomersPage");
const HistoryEntryPage = screen(() => import("../features/history/HistoryEntryPage"), "HistoryEntryPage");
const HistoryPage = screen(() => import("../features/history/HistoryPage"), "HistoryPage");
const InvitePage = screen(() => import("../features/auth/InvitePage"), "InvitePage");
const MemberPage = screen(() => import("../features/teams/MemberPage"), "MemberPage");
const TeamsPage = screen(() => import("../features/teams/TeamsPage"), "TeamsPage");
const IntegrationsPage = screen(() => import("../features/developers/IntegrationsPage"), "IntegrationsPage");
const TokensPage = screen(() => import("../features/developers/TokensPage"), "TokensPage");
const WebhookEndpointPage = screen(() => import("../features/developers/WebhookEndpointPage"), "WebhookEndpointPage");
const WebhooksPage = screen(() => import("../features/developers/WebhooksPage"), "WebhooksPage");
const HomePage = screen(() => import("../features/home/HomePage"), "HomePage");
const ImportAction = screen(() => import("../features/imports/ImportAction"), "ImportAction");
const ImportPage = screen(() => import("../features/imports/ImportPage"), "ImportPage");
const InsightsPage = screen(() => import("../features/insights/InsightsPage"), "InsightsPage");
const ImportsList = screen(() => import("../features/imports/ImportsList"), "ImportsList");
const MandateDetailPage = screen(() => import("../features/mandates/MandateDetailPage"), "MandateDetailPage");
const MandatesPage = screen(() => import("../features/mandates/MandatesPage"), "MandatesPage");
const OrdersPage = screen(() => import("../features/orders/OrdersPage"), "OrdersPage");
const PayPagesPage = screen(() => import("../features/payPages/PayPagesPage"), "PayPagesPage");
const PaymentMethodsPage = screen(() => import("../features/paymentMethods/PaymentMethodsPage"), "PaymentMethodsPage");
const PaymentDetailPage = screen(() => import("../features/payments/PaymentDetailPage"), "PaymentDetailPage");
const PaymentsPage = screen(() => import("../features/payments/PaymentsPage"), "PaymentsPage");
const NewPaymentForCustomer = screen(() => import("../features/payments/NewPaymentForCustomer"), "NewPaymentForCustomer");
const SummaryPage = screen(() => import("../features/summary/SummaryPage"), "SummaryPage");
const PayoutsPage = screen(() => import("../features/payouts/PayoutsPage"), "PayoutsPage");
const PayToCustomerAction = screen(() => import("../features/payouts/PayToCustomerAction"), "PayToCustomerAction");
const TransactionPayoutAction = screen(() => import("../features/payouts/TransactionPayoutAction"), "TransactionPayoutAction");
const ProfilePage = screen(() => import("../features/profile/ProfilePage"), "ProfilePage");
const TransactionDetailPage = screen(() => import("../features/transactions/TransactionDetailPage"), "TransactionDetailPage");
const TransactionsPage = screen(() => import("../features/transactions/TransactionsPage"), "TransactionsPage");

// Every route has its screen: the type makes a new route without one a build error.
const BUILT: Record<Screen, () => ReactNode> = {
  home: () => <HomePage />,
  login: () => <LoginPage />,
  signup: () => <SignupPage />,
  forgot: () => <ForgotPage />,
  reset: () => <ResetPage />,
  twoFactorBackup: () => <BackupCodePage />,
  emailVerify: () => <VerifyEmailPage />,
  profile: () => <ProfilePage themeChoice={<ThemeChoice />} onLanguageSaved={(language) => void setLanguage(language)} />,
  businessInfo: () => <BusinessInfoPage />,
  payouts: () => <PayoutsPage />,
  customers: () => <CustomersPage />,
  customer: () => (
    <CustomerDetailPage
      bankAccountAction={(props) => (
        <Suspense fallback={null}>
          <PayToCustomerAction {...props} />
        </Suspense>
      )}
      headerAction={(customer) => (
        <Suspense fallback={null}>
          <NewPaymentForCustomer customer={customer} />
        </Suspense>
      )}
      related={(customerId) => <CustomerRecords customerId={customerId} />}
    />
  ),
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
  transaction: () => (
    <TransactionDetailPage
      payouts={(transaction) => (
        <Suspense fallback={null}>
          <TransactionPayoutAction transaction={transaction} />
        </Suspense>
      )}
    />
  ),
  paymentPages: () => <PayPagesPage />,
  orders: () => <OrdersPage />,
  cards: () => <CardsPage />,
  insights: () => <InsightsPage />,
  webhooks: () => <WebhooksPage />,
  webhook: () => <WebhookEndpointPage />,
  integrations: () => <IntegrationsPage />,
  tokens: () => <TokensPage />,
  teams: () => <TeamsPage />,
  team: () => <MemberPage />,
  teamInvite: () => <InvitePage signOut={<SignOutHere testId="invite-sign-out" />} />,
  history: () => <HistoryPage />,
  historyEntry: () => <HistoryEntryPage />,
  downloadSummary: () => <SummaryPage />,
};

/** A customer's mandates, payments and transactions, each as far as the viewer may see them. */
function CustomerRecords({ customerId }: { customerId: string }) {
  const mandates = useCan("mandates");
  const payments = useCan("payments");
  const transactions = useCan("transactions");
  return (
    <Suspense fallback={null}>
      {mandates ? <CustomerMandates customerId={customerId} /> : null}
      {payments ? <CustomerPayments customerId={customerId} kind="recurring" /> : null}
      {payments ? <CustomerPayments customerId={customerId} kind="once" /> : null}
      {transactions ? <CustomerTransactions customerId={customerId} /> : null}
    </Suspense>
  );
}

function ScreenLoading() {
  const { t } = useTranslation();
  return <PageSpinner label={t("app.loading")} />;
}

/** The screen of one route; a malformed id or token shows the not-found page instead. */
export function RouteScreen({ entry }: { entry: RouteEntry }) {
  const params = useParams();
  const { pathname } = useLocation();
  if (!paramsAreValid(params)) return <ErrorView variant="not-found" path={pathname} />;
  return <Suspense fallback={<ScreenLoading />}>{BUILT[entry.screen]()}</Suspense>;
}
