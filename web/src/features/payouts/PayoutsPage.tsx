import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { Link } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { Badge, type BadgeTone } from "../../components/Badge";
import { Button } from "../../components/Button";
import { formatBusinessDate, formatDateTime, formatMoney } from "../../components/format";
import { PageHeader } from "../../components/PageHeader";
import { SettingsCard } from "../../components/SettingsCard";
import { Spinner } from "../../components/Spinner";
import { useCan } from "../../live/permissions";
import type { Payout, PayoutSettings, PayoutStatus } from "../../protocol/wire";
import { PayOutDialog } from "./PayOutDialog";
import { PayoutPanel } from "./PayoutPanel";
import { ScheduleForm } from "./ScheduleForm";
import { SettlementAccountDialog } from "./SettlementAccountDialog";
import { useHoldActive } from "./useHoldActive";
import { useBalance, usePayoutList, usePayoutSettings } from "./usePayouts";
import "./payouts.css";

export const STATUS_TONE: Record<PayoutStatus, BadgeTone> = { pending: "zinc", submitted: "blue", paid: "green", failed: "red" };

export function PayoutsPage() {
  const { t } = useTranslation();
  const mayReadStatement = useCan("exports");
  const settings = usePayoutSettings();
  const [paying, setPaying] = useState(false);
  const [changing, setChanging] = useState(false);
  // `?payout=` opens one payout's detail, as a transaction's link to its refund does.
  const [params] = useSearchParams();
  const [open, setOpen] = useState<string | null>(params.get("payout"));
  const loadedSettings = settings && "value" in settings ? settings.value : null;
  return (
    <section className="page" data-testid="payouts-page">
      <PageHeader
        title={t("screens.payouts")}
        subtitle={t("payouts.subtitle")}
        needs="payouts:write"
        actions={
          <>
            {mayReadStatement ? (
              <Link to="/download/summary" className="btn btn-secondary" data-testid="statement-link">
                {t("payouts.statement")}
              </Link>
            ) : null}
            <Button variant="primary" onClick={() => setPaying(true)} disabled={!loadedSettings?.account} needs="payouts:write" data-testid="pay-out">
              {t("payouts.payOut.open")}
            </Button>
          </>
        }
      />
      {settings && "error" in settings ? <Alert>{t(`errors.${settings.error}`)}</Alert> : null}
      <BalanceCard />
      {loadedSettings ? (
        <div className="payouts-grid">
          <AccountCard settings={loadedSettings} onChange={() => setChanging(true)} />
          <SettingsCard title={t("payouts.schedule.title")} description={t("payouts.schedule.body")} testId="payout-schedule">
            <ScheduleForm schedule={loadedSettings.schedule} feeCents={loadedSettings.feeCents} />
          </SettingsCard>
        </div>
      ) : (
        <Spinner label={t("app.loading")} />
      )}
      <PayoutList onOpen={setOpen} />
      {paying && loadedSettings ? <PayOutDialog settings={loadedSettings} onClose={() => setPaying(false)} /> : null}
      {changing ? <SettlementAccountDialog onClose={() => setChanging(false)} /> : null}
      {open ? <PayoutPanel payoutId={open} onClose={() => setOpen(null)} /> : null}
    </section>
  );
}

function BalanceCard() {
  const { t, i18n } = useTranslation();
  const balance = useBalance();
  if (!balance) return <Spinner label={t("app.loading")} />;
  if ("error" in balance) return <Alert>{t(`errors.${balance.error}`)}</Alert>;
  const { availableCents, pendingCents, today } = balance.value;
  return (
    <div className="payouts-balance card" data-testid="payout-balance">
      <div>
        <div className="payouts-figure-label">{t("payouts.balance.available")}</div>
        <div className="payouts-figure" data-testid="balance-available">
          {formatMoney(availableCents, i18n.language)}
        </div>
      </div>
      <div>
        <div className="payouts-figure-label">{t("payouts.balance.pending")}</div>
        <div className="payouts-figure payouts-figure-muted" data-testid="balance-pending">
          {formatMoney(pendingCents, i18n.language)}
        </div>
      </div>
      <p className="payouts-today">{t("payouts.balance.today", { date: formatBusinessDate(today, i18n.language) })}</p>
    </div>
  );
}

function AccountCard({ settings, onChange }: { settings: PayoutSettings; onChange: () => void }) {
  const { t, i18n } = useTranslation();
  const account = settings.account;
  // The hold's end is on the stream's clock (the test clock's days count in test mode); the
  // timer that lifts it runs on this browser's wall clock.
  const held = useHoldActive(settings.heldUntil === undefined ? undefined : settings.heldUntil - settings.clockAheadMs);
  return (
    <SettingsCard
      title={t("payouts.account.title")}
      description={t("payouts.account.body")}
      testId="settlement-account"
      status={account ? <Badge tone="green">{t("payouts.account.verified")}</Badge> : <Badge tone="amber">{t("payouts.account.none")}</Badge>}
    >
      {held ? (
        <Alert tone="info">
          <span data-testid="payout-hold">{t("payouts.account.held", { until: formatDateTime(settings.heldUntil ?? 0, i18n.language) })}</span>
        </Alert>
      ) : null}
      {account ? (
        <dl className="detail-list">
          <div className="detail-row">
            <dt>{t("bankAccounts.fields.holderName")}</dt>
            <dd>{account.holderName}</dd>
          </div>
          <div className="detail-row">
            <dt>{t("bankAccounts.fields.accountNumber")}</dt>
            <dd data-testid="account-last4">•••• {account.accountLast4}</dd>
          </div>
          <div className="detail-row">
            <dt>{t("bankAccounts.fields.branchCode")}</dt>
            <dd>{account.branchCode}</dd>
          </div>
          <div className="detail-row">
            <dt>{t("bankAccounts.fields.accountType")}</dt>
            <dd>{t(`bankAccounts.types.${account.accountType}`)}</dd>
          </div>
        </dl>
      ) : null}
      {/* Where the money is paid out is the business's settings (owners and admins). */}
      <div className="form-actions">
        <Button onClick={onChange} needs="settings:write" data-testid="change-account">
          {account ? t("payouts.account.change") : t("payouts.account.add")}
        </Button>
      </div>
    </SettingsCard>
  );
}

function PayoutList({ onOpen }: { onOpen: (id: string) => void }) {
  const { t, i18n } = useTranslation();
  const list = usePayoutList();
  if (!list) return <Spinner label={t("app.loading")} />;
  if ("error" in list) return <Alert>{t(`errors.${list.error}`)}</Alert>;
  return (
    <>
      <h2 className="payouts-section-title">{t("payouts.list.title")}</h2>
      {list.value.length === 0 ? (
        <p className="card-empty" data-testid="no-payouts">
          {t("payouts.list.none")}
        </p>
      ) : (
        <div className="table-card">
          <table className="table" data-testid="payouts-table">
            <thead>
              <tr>
                <th scope="col">{t("payouts.fields.requestedOn")}</th>
                <th scope="col">{t("payouts.fields.to")}</th>
                <th scope="col">{t("payouts.fields.status")}</th>
                <th scope="col" className="cell-amount">
                  {t("payouts.fields.amount")}
                </th>
                <th scope="col" className="cell-amount">
                  {t("payouts.fields.fee")}
                </th>
                <th scope="col" className="cell-amount">
                  {t("payouts.fields.net")}
                </th>
              </tr>
            </thead>
            <tbody>
              {list.value.map((payout) => (
                <PayoutRow key={payout.id} payout={payout} onOpen={onOpen} language={i18n.language} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function PayoutRow({ payout, onOpen, language }: { payout: Payout; onOpen: (id: string) => void; language: string }) {
  const { t } = useTranslation();
  return (
    <tr data-testid={`payout-${payout.id}`}>
      <td>
        <button type="button" className="table-link link-button" onClick={() => onOpen(payout.id)} data-testid="open-payout">
          {formatBusinessDate(payout.requestedOn, language)}
        </button>
        {payout.automatic ? <div className="cell-sub">{t("payouts.automatic")}</div> : null}
      </td>
      <td>
        {payout.holderName} <span className="cell-sub">•••• {payout.accountLast4}</span>
        {payout.kind === "customer" ? <div className="cell-sub">{t("payouts.toCustomer")}</div> : null}
      </td>
      <td data-testid="payout-status">
        <Badge tone={STATUS_TONE[payout.status]}>{t(`payouts.status.${payout.status}`)}</Badge>
      </td>
      <td className="cell-amount">{formatMoney(payout.amountCents, language)}</td>
      <td className="cell-amount" data-testid="payout-fee">
        {formatMoney(payout.feeCents, language)}
      </td>
      <td className="cell-amount">{formatMoney(payout.netCents, language)}</td>
    </tr>
  );
}
