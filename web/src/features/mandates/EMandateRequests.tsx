import { useAtomValue } from "jotai";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { Badge, type BadgeTone } from "../../components/Badge";
import { Button } from "../../components/Button";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { EmptyState } from "../../components/EmptyState";
import { formatBusinessDate, formatMoney } from "../../components/format";
import { Spinner } from "../../components/Spinner";
import { eMandateRequestAtom, eMandateRequestUpsertsAtom } from "../../live/cache";
import { useCan } from "../../live/permissions";
import { useCommand } from "../../live/useCommand";
import { usePagedList } from "../../live/usePagedList";
import type { EMandateRequest, EMandateState } from "../../protocol/wire";
import { EMandateQrDialog } from "./EMandateQrDialog";
import { absoluteLink } from "./eMandateForm";

const PAGE_SIZE = 25;

const TONE: Record<EMandateState, BadgeTone> = {
  sent: "blue",
  opened: "amber",
  completed: "green",
  declined: "red",
  no_reply: "red",
  expired: "zinc",
  cancelled: "zinc",
};

// Resend and cancel work while the payer may still act, and on an expired link (asked again).
function isOpen(state: EMandateState): boolean {
  return state === "sent" || state === "opened" || state === "expired";
}

/** The links sent to payers to sign a mandate themselves, each with its state as it changes. */
export function EMandateRequests() {
  const { t } = useTranslation();
  const list = usePagedList({
    kind: "e_mandate_request",
    upserts: eMandateRequestUpsertsAtom,
    key: "e-mandate-requests",
    query: (cursor) => ({ t: "ListEMandateRequests", cursor, limit: PAGE_SIZE }),
  });
  return (
    <section className="e-mandate-requests" aria-labelledby="e-mandate-requests-title" data-testid="e-mandate-requests">
      <h2 id="e-mandate-requests-title" className="card-title e-mandate-section-title">
        {t("eMandates.requestsTitle")}
      </h2>
      {list.error ? <Alert>{t(`errors.${list.error}`)}</Alert> : null}
      {list.loading && list.ids.length === 0 ? (
        <div className="table-placeholder">
          <Spinner label={t("app.loading")} />
        </div>
      ) : list.ids.length === 0 && !list.error ? (
        <EmptyState testId="e-mandate-requests-empty" title={t("eMandates.empty")} body={t("eMandates.emptyHint")} />
      ) : list.ids.length === 0 ? null : (
        <div className="table-card table-scroll" aria-busy={list.loading}>
          <table className="table" aria-label={t("eMandates.requestsTitle")} data-testid="e-mandate-request-table">
            <thead>
              <tr>
                <th scope="col">{t("eMandates.columns.payer")}</th>
                <th scope="col" className="hide-sm">{t("eMandates.columns.method")}</th>
                <th scope="col" className="cell-amount">{t("eMandates.columns.amount")}</th>
                <th scope="col">{t("eMandates.columns.state")}</th>
                <th scope="col" className="hide-md">{t("eMandates.columns.expires")}</th>
                <th scope="col" aria-label={t("eMandates.columns.actions")} />
              </tr>
            </thead>
            <tbody>
              {list.ids.map((id) => (
                <RequestRow key={id} id={id} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.hasMore ? (
        <div className="load-more">
          <Button onClick={list.loadMore} busy={list.loadingMore} data-testid="e-mandate-requests-more">
            {list.loadingMore ? t("mandates.loadingMore") : t("mandates.loadMore")}
          </Button>
        </div>
      ) : null}
    </section>
  );
}

function RequestRow({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const request = useAtomValue(eMandateRequestAtom(id));
  if (!request) return null;
  const amount = formatMoney(request.amountCents, i18n.language);
  return (
    <tr data-testid="e-mandate-request-row" data-request-id={id} data-state={request.state}>
      <td>
        <div className="picked-name">{request.name}</div>
        <div className="cell-sub">{request.email}</div>
      </td>
      <td className="hide-sm">{t(`collections.method.${request.method}`)}</td>
      <td className="cell-amount">
        {amount}
        {request.maxCents !== undefined ? <div className="cell-sub">{t("eMandates.upTo", { amount: formatMoney(request.maxCents, i18n.language) })}</div> : null}
      </td>
      <td>
        <span data-testid="e-mandate-request-state" data-state={request.state}>
          <Badge tone={TONE[request.state]}>{t(`eMandates.state.${request.state}`)}</Badge>
        </span>
        {request.state === "completed" && request.mandateId ? (
          <div className="cell-sub">
            <Link to={`/mandates/${request.mandateId}`} className="table-link" data-testid="e-mandate-request-mandate">
              {t("eMandates.viewMandate")}
            </Link>
          </div>
        ) : null}
      </td>
      <td className="cell-muted hide-md">{isOpen(request.state) ? formatBusinessDate(request.expiresOn, i18n.language) : "—"}</td>
      <td className="cell-actions">
        <RequestActions request={request} />
      </td>
    </tr>
  );
}

type Asking = "resend" | "cancel";

function RequestActions({ request }: { request: EMandateRequest }) {
  const { t } = useTranslation();
  const canWrite = useCan("mandates", "write");
  const command = useCommand();
  const [asking, setAsking] = useState<Asking | null>(null);
  const [copied, setCopied] = useState<"copied" | "failed" | null>(null);
  const [showQr, setShowQr] = useState(false);
  const open = isOpen(request.state);
  const link = absoluteLink(request.link, window.location.origin);

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
  }

  async function confirm() {
    if (!asking) return;
    const reply = await command.run(asking === "resend" ? { t: "ResendEMandateRequest", requestId: request.id } : { t: "CancelEMandateRequest", requestId: request.id });
    if (reply) setAsking(null);
  }

  if (!open || !canWrite) return null;
  return (
    <div className="e-mandate-actions">
      <div className="e-mandate-buttons">
      {request.state !== "expired" ? (
        <Button variant="ghost" onClick={() => void copy()} aria-label={t("eMandates.copyFor", { name: request.name })} data-testid="e-mandate-copy" data-link={link}>
          {copied === "copied" ? t("eMandates.copied") : t("eMandates.copy")}
        </Button>
      ) : null}
      {request.state !== "expired" ? (
        <Button variant="ghost" onClick={() => setShowQr(true)} aria-label={t("eMandates.qr.labelFor", { name: request.name })} data-testid="e-mandate-qr-button">
          {t("eMandates.qr.button")}
        </Button>
      ) : null}
      <Button onClick={() => (command.clearError(), setAsking("resend"))} aria-label={t("eMandates.resend.labelFor", { name: request.name })} needs="mandates:write" data-testid="e-mandate-resend">
        {t("eMandates.resend.button")}
      </Button>
      <Button variant="danger" onClick={() => (command.clearError(), setAsking("cancel"))} aria-label={t("eMandates.cancel.labelFor", { name: request.name })} needs="mandates:write" data-testid="e-mandate-cancel">
        {t("eMandates.cancel.button")}
      </Button>
      </div>
      {copied === "failed" ? (
        <p className="field-hint" role="status">
          {t("eMandates.copyFailed", { link })}
        </p>
      ) : null}
      <EMandateQrDialog request={request} link={link} open={showQr} onOpenChange={setShowQr} />
      {asking ? (
        <ConfirmDialog
          open
          onOpenChange={(next) => (next ? null : setAsking(null))}
          title={t(`eMandates.${asking}.title`)}
          body={t(`eMandates.${asking}.body`, { name: request.name, email: request.email })}
          confirmLabel={t(`eMandates.${asking}.confirm`)}
          onConfirm={() => void confirm()}
          busy={command.busy}
          error={command.error}
          variant={asking === "cancel" ? "danger" : "primary"}
          needs="mandates:write"
        />
      ) : null}
    </div>
  );
}
