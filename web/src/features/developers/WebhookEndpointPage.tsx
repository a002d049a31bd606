import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { Link, useNavigate } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { Dialog } from "../../components/Dialog";
import { EmptyState } from "../../components/EmptyState";
import { formatDateTime } from "../../components/format";
import { PageHeader } from "../../components/PageHeader";
import { PageSpinner } from "../../components/Spinner";
import { useCan } from "../../live/permissions";
import { useCommand } from "../../live/useCommand";
import type { WebhookEndpoint } from "../../protocol/wire";
import { DeliveryLog } from "./DeliveryLog";
import { EndpointState } from "./EndpointState";
import { SecretReveal } from "./SecretReveal";
import { useDeliveries, useWebhookEndpoints } from "./useWebhooks";
import { EndpointActions } from "./WebhooksPage";
import "./developers.css";
import { ErrorAlert } from "../../components/ErrorAlert";
import { RealTimeNote } from "../../components/RealTimeNote";

/** One endpoint: what it receives, its live delivery log, and the tools to test, resend and roll its secret. */
export function WebhookEndpointPage() {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const { endpoints, eventTypes, error, loaded } = useWebhookEndpoints();
  const endpoint = endpoints.find((known) => known.id === id);
  return (
    <section className="page" data-testid="webhook-endpoint-page">
      <Link to="/developers/webhooks" className="back-link">
        ← {t("developers.webhooks.back")}
      </Link>
      {!loaded ? <PageSpinner label={t("app.loading")} /> : null}
      {loaded && !endpoint ? <EmptyState title={error ? t(`errors.${error}`) : t("developers.webhooks.notFound")} testId="webhook-missing" /> : null}
      {endpoint ? <EndpointDetail endpoint={endpoint} eventTypes={eventTypes} /> : null}
    </section>
  );
}

function EndpointDetail({ endpoint, eventTypes }: { endpoint: WebhookEndpoint; eventTypes: string[] }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const canWrite = useCan("developers", "write");
  const log = useDeliveries(endpoint.id);
  const failed = log.deliveries.filter((delivery) => delivery.state === "failed").length;
  const all = endpoint.eventTypes.length === eventTypes.length;
  return (
    <>
      <PageHeader
        title={endpoint.description || t("screens.webhook")}
        subtitle={endpoint.url}
        actions={canWrite ? <EndpointActions endpoint={endpoint} eventTypes={eventTypes} onDeleted={() => void navigate("/developers/webhooks")} /> : null}
      />
      <div className="detail-meta">
        <EndpointState endpoint={endpoint} />
        <code className="cell-mono">{endpoint.id}</code>
        <span className="cell-muted">{t("developers.webhooks.createdAt", { at: formatDateTime(endpoint.createdAt, i18n.language) })}</span>
      </div>
      <RealTimeNote />
      {endpoint.disabledReason ? (
        <Alert testId="webhook-disabled-reason">{t("developers.webhooks.failingBody")}</Alert>
      ) : null}
      <div className="detail-grid">
        <div className="card">
          <h2 className="card-title">{t("developers.webhooks.eventTypes")}</h2>
          <p className="endpoint-events" data-testid="webhook-detail-events">
            {all ? t("developers.webhooks.allEvents") : endpoint.eventTypes.join(", ")}
          </p>
        </div>
        <div className="card">
          <h2 className="card-title">{t("developers.webhooks.signing")}</h2>
          <p className="cell-muted">{t("developers.webhooks.signingBody")}</p>
          {endpoint.previousSecretUntil ? (
            <p className="field-hint" data-testid="webhook-previous-secret">
              {t("developers.webhooks.previousUntil", { at: formatDateTime(endpoint.previousSecretUntil, i18n.language) })}
            </p>
          ) : null}
          {canWrite ? <RollSecret endpoint={endpoint} /> : null}
        </div>
      </div>
      <div className="log-header">
        <h2 className="card-title">{t("developers.webhooks.log")}</h2>
        {canWrite ? <LogActions endpoint={endpoint} failed={failed} /> : null}
      </div>
      {log.error ? <Alert>{t(`errors.${log.error}`)}</Alert> : null}
      <DeliveryLog endpointId={endpoint.id} log={log} canWrite={canWrite} />
    </>
  );
}

function LogActions({ endpoint, failed }: { endpoint: WebhookEndpoint; failed: number }) {
  const { t } = useTranslation();
  const command = useCommand();
  const [sent, setSent] = useState<"test" | "resend" | null>(null);
  async function run(kind: "test" | "resend") {
    setSent(null);
    const reply = await command.run(kind === "test" ? { t: "SendTestWebhookEvent", endpointId: endpoint.id } : { t: "ResendWebhookDeliveries", endpointId: endpoint.id });
    if (reply) setSent(kind);
  }
  return (
    <div className="log-actions">
      <Button onClick={() => void run("test")} disabled={command.busy} needs="developers:write" data-testid="webhook-send-test">
        {t("developers.webhooks.sendTest")}
      </Button>
      {failed > 0 ? (
        <Button onClick={() => void run("resend")} disabled={command.busy} needs="developers:write" data-testid="webhook-resend-all">
          {t("developers.webhooks.resendAll", { count: failed })}
        </Button>
      ) : null}
      {sent ? (
        <span className="field-hint" role="status" data-testid="webhook-queued">
          {t(sent === "test" ? "developers.webhooks.testQueued" : "developers.webhooks.resendQueued")}
        </span>
      ) : null}
      <ErrorAlert code={command.error?.code} needs="developers:write" />
    </div>
  );
}

function RollSecret({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation();
  const command = useCommand();
  const [asking, setAsking] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  async function roll() {
    const reply = await command.run({ t: "RollWebhookSecret", endpointId: endpoint.id });
    if (reply?.t !== "WebhookSecret") return;
    setAsking(false);
    setSecret(reply.secret ?? null);
  }
  return (
    <>
      <Button onClick={() => (command.clearError(), setAsking(true))} needs="developers:write" data-testid="webhook-roll">
        {t("developers.webhooks.roll.button")}
      </Button>
      {asking ? (
        <ConfirmDialog
          open
          onOpenChange={setAsking}
          title={t("developers.webhooks.roll.title")}
          body={t("developers.webhooks.roll.body")}
          confirmLabel={t("developers.webhooks.roll.confirm")}
          onConfirm={() => void roll()}
          busy={command.busy}
          error={command.error}
          needs="developers:write"
        />
      ) : null}
      {secret ? (
        <Dialog open onOpenChange={(open) => (open ? null : setSecret(null))} title={t("developers.webhooks.roll.doneTitle")} closeLabel={t("common.close")} testId="webhook-rolled">
          <div className="form">
            <SecretReveal label={t("developers.webhooks.secretLabel")} secret={secret} hint={t("developers.webhooks.rolledOnce")} testId="webhook-secret" />
            <div className="form-actions">
              <Button variant="primary" onClick={() => setSecret(null)} data-testid="webhook-secret-done">
                {t("developers.done")}
              </Button>
            </div>
          </div>
        </Dialog>
      ) : null}
    </>
  );
}
