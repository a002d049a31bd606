import { Fragment, useState } from "react";
import { useTranslation } from "react-i18next";
import { Badge, type BadgeTone } from "../../components/Badge";
import { Button } from "../../components/Button";
import { EmptyState } from "../../components/EmptyState";
import { formatDateTime } from "../../components/format";
import { Spinner } from "../../components/Spinner";
import { useCommand } from "../../live/useCommand";
import type { WebhookDelivery } from "../../protocol/wire";
import type { DeliveriesState } from "./useWebhooks";
import { ErrorAlert } from "../../components/ErrorAlert";

type Shown = "delivered" | "retrying" | "queued" | "failed";

// A pending delivery that was tried already is waiting for its next attempt.
function shownState(delivery: WebhookDelivery): Shown {
  if (delivery.state === "pending") return delivery.attempts > 0 ? "retrying" : "queued";
  return delivery.state;
}

const TONE: Record<Shown, BadgeTone> = { delivered: "green", retrying: "amber", queued: "blue", failed: "red" };

// The body as sent, laid out to read; a body that is not JSON is shown as it is.
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** Every delivery of an endpoint, newest first, as it is queued and attempted. */
export function DeliveryLog({ endpointId, log, canWrite }: { endpointId: string; log: DeliveriesState; canWrite: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<string | null>(null);
  if (!log.loaded) {
    return (
      <div className="table-placeholder">
        <Spinner label={t("app.loading")} />
      </div>
    );
  }
  if (log.deliveries.length === 0) {
    return log.error ? null : <EmptyState testId="webhook-log-empty" title={t("developers.webhooks.logEmpty")} body={t("developers.webhooks.logEmptyHint")} />;
  }
  return (
    <div className="table-card table-scroll">
      <table className="table" aria-label={t("developers.webhooks.log")} data-testid="webhook-log">
        <thead>
          <tr>
            <th scope="col">{t("developers.webhooks.columns.event")}</th>
            <th scope="col">{t("developers.webhooks.columns.state")}</th>
            <th scope="col" className="cell-amount">
              {t("developers.webhooks.columns.attempts")}
            </th>
            <th scope="col" className="hide-sm">
              {t("developers.webhooks.columns.status")}
            </th>
            <th scope="col" className="hide-sm cell-amount">
              {t("developers.webhooks.columns.duration")}
            </th>
            <th scope="col" className="hide-md">
              {t("developers.webhooks.columns.time")}
            </th>
            <th scope="col" aria-label={t("developers.webhooks.columns.actions")} />
          </tr>
        </thead>
        <tbody>
          {log.deliveries.map((delivery) => (
            <Fragment key={delivery.id}>
              <DeliveryRow
                delivery={delivery}
                endpointId={endpointId}
                canWrite={canWrite}
                expanded={open === delivery.id}
                onToggle={() => setOpen((current) => (current === delivery.id ? null : delivery.id))}
              />
              {open === delivery.id ? (
                <tr className="delivery-detail-row" data-testid="webhook-delivery-detail">
                  <td colSpan={7}>
                    <DeliveryDetail delivery={delivery} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type RowProps = { delivery: WebhookDelivery; endpointId: string; canWrite: boolean; expanded: boolean; onToggle: () => void };

function DeliveryRow({ delivery, endpointId, canWrite, expanded, onToggle }: RowProps) {
  const { t, i18n } = useTranslation();
  const resend = useCommand();
  const shown = shownState(delivery);
  const at = delivery.lastAttemptAt ?? delivery.createdAt;
  return (
    <tr data-testid="webhook-delivery" data-delivery-id={delivery.id} data-state={shown} data-event-type={delivery.eventType}>
      <td>
        <div className="cell-mono">{delivery.eventType}</div>
        <div className="cell-sub cell-mono delivery-event-id">{delivery.eventId}</div>
      </td>
      <td>
        <span data-testid="webhook-delivery-state" data-state={shown}>
          <Badge tone={TONE[shown]}>{t(`developers.webhooks.delivery.${shown}`)}</Badge>
        </span>
        {shown === "retrying" ? <div className="cell-sub">{t("developers.webhooks.nextAttempt", { at: formatDateTime(delivery.nextAttemptAt, i18n.language) })}</div> : null}
      </td>
      <td className="cell-amount" data-testid="webhook-delivery-attempts">
        {delivery.attempts}
      </td>
      <td className="hide-sm cell-mono" data-testid="webhook-delivery-status">
        {delivery.lastStatus ?? (delivery.lastError ? t("developers.webhooks.noAnswer") : "—")}
      </td>
      <td className="hide-sm cell-amount cell-muted">{delivery.lastDurationMs !== undefined ? t("developers.webhooks.ms", { ms: delivery.lastDurationMs }) : "—"}</td>
      <td className="hide-md cell-muted">{formatDateTime(at, i18n.language)}</td>
      <td className="cell-actions">
        <div className="endpoint-actions delivery-actions">
          <Button variant="ghost" onClick={onToggle} aria-expanded={expanded} data-testid="webhook-delivery-toggle">
            {expanded ? t("developers.webhooks.hideDetails") : t("developers.webhooks.showDetails")}
          </Button>
          {canWrite && delivery.state !== "pending" ? (
            <Button onClick={() => void resend.run({ t: "ResendWebhookDeliveries", endpointId, deliveryId: delivery.id })} busy={resend.busy} needs="developers:write" whenRefused="hide" data-testid="webhook-delivery-resend">
              {t("developers.webhooks.resend")}
            </Button>
          ) : null}
        </div>
        <ErrorAlert code={resend.error?.code} needs="developers:write" />
      </td>
    </tr>
  );
}

function DeliveryDetail({ delivery }: { delivery: WebhookDelivery }) {
  const { t } = useTranslation();
  return (
    <div className="delivery-detail">
      <div>
        <h3 className="delivery-detail-title">{t("developers.webhooks.requestHeaders")}</h3>
        <pre className="code-block" data-testid="webhook-request-headers">
          {delivery.lastRequestHeaders || t("developers.webhooks.notSentYet")}
        </pre>
      </div>
      <div>
        <h3 className="delivery-detail-title">{t("developers.webhooks.requestBody")}</h3>
        <pre className="code-block" data-testid="webhook-request-body">
          {pretty(delivery.payload)}
        </pre>
      </div>
      <div>
        <h3 className="delivery-detail-title">{t("developers.webhooks.response")}</h3>
        <pre className="code-block" data-testid="webhook-response">
          {delivery.lastError ? t("developers.webhooks.errorWas", { error: delivery.lastError }) : delivery.lastResponse || t("developers.webhooks.emptyResponse")}
        </pre>
        <p className="field-hint">{t("developers.webhooks.responseKept")}</p>
      </div>
    </div>
  );
}
