import { useAtomValue } from "jotai";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { EmptyState } from "../../components/EmptyState";
import { PageHeader } from "../../components/PageHeader";
import { Spinner } from "../../components/Spinner";
import { identityAtom } from "../../live/atoms";
import { useCan } from "../../live/permissions";
import { useCommand } from "../../live/useCommand";
import type { WebhookEndpoint } from "../../protocol/wire";
import { EndpointDialog } from "./EndpointDialog";
import { EndpointState } from "./EndpointState";
import { useWebhookEndpoints } from "./useWebhooks";
import "./developers.css";
import { ErrorAlert } from "../../components/ErrorAlert";

/** The mode's webhook endpoints: where events go, which ones, and whether they are sent now. */
export function WebhooksPage() {
  const { t } = useTranslation();
  const mode = useAtomValue(identityAtom)?.mode ?? "test";
  const canWrite = useCan("developers", "write");
  const { endpoints, eventTypes, error, loaded } = useWebhookEndpoints();
  const [adding, setAdding] = useState(false);
  const add = (
    <Button variant="primary" onClick={() => setAdding(true)} disabled={eventTypes.length === 0} needs="developers:write" data-testid="webhook-add">
      {t("developers.webhooks.add")}
    </Button>
  );
  return (
    <section className="page" data-testid="webhooks-page">
      <PageHeader title={t("screens.webhooks")} subtitle={t(`developers.webhooks.subtitle.${mode}`)} actions={add} needs="developers:write" />
      {error ? <Alert>{t(`errors.${error}`)}</Alert> : null}
      {!loaded ? (
        <div className="table-placeholder">
          <Spinner label={t("app.loading")} />
        </div>
      ) : endpoints.length === 0 && !error ? (
        <EmptyState testId="webhooks-empty" title={t("developers.webhooks.empty")} body={t("developers.webhooks.emptyHint")} />
      ) : endpoints.length === 0 ? null : (
        <div className="table-card table-scroll">
          <table className="table" aria-label={t("screens.webhooks")} data-testid="webhook-table">
            <thead>
              <tr>
                <th scope="col">{t("developers.webhooks.columns.endpoint")}</th>
                <th scope="col" className="hide-sm">
                  {t("developers.webhooks.columns.events")}
                </th>
                <th scope="col">{t("developers.webhooks.columns.state")}</th>
                <th scope="col" aria-label={t("developers.webhooks.columns.actions")} />
              </tr>
            </thead>
            <tbody>
              {endpoints.map((endpoint) => (
                <EndpointRow key={endpoint.id} endpoint={endpoint} eventTypes={eventTypes} canWrite={canWrite} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {adding ? <EndpointDialog eventTypes={eventTypes} onClose={() => setAdding(false)} /> : null}
    </section>
  );
}

function EndpointRow({ endpoint, eventTypes, canWrite }: { endpoint: WebhookEndpoint; eventTypes: string[]; canWrite: boolean }) {
  const { t } = useTranslation();
  const events = endpoint.eventTypes.length === eventTypes.length ? t("developers.webhooks.allEvents") : endpoint.eventTypes.join(", ");
  return (
    <tr data-testid="webhook-row" data-endpoint-id={endpoint.id} data-enabled={endpoint.enabled}>
      <td className="endpoint-cell">
        <Link to={`/developers/webhooks/${endpoint.id}`} className="table-link endpoint-url" data-testid="webhook-link">
          {endpoint.url}
        </Link>
        {endpoint.description ? <div className="cell-sub">{endpoint.description}</div> : null}
      </td>
      <td className="hide-sm cell-muted endpoint-events">{events}</td>
      <td>
        <EndpointState endpoint={endpoint} />
      </td>
      <td className="cell-actions">{canWrite ? <EndpointActions endpoint={endpoint} eventTypes={eventTypes} /> : null}</td>
    </tr>
  );
}

type Asking = "pause" | "delete";

/** Edit, pause or enable, and delete: each a command of the account history. */
export function EndpointActions({ endpoint, eventTypes, onDeleted }: { endpoint: WebhookEndpoint; eventTypes: string[]; onDeleted?: () => void }) {
  const { t } = useTranslation();
  const command = useCommand();
  const [editing, setEditing] = useState(false);
  const [asking, setAsking] = useState<Asking | null>(null);
  const name = endpoint.url;

  async function enable() {
    await command.run({ t: "UpdateWebhookEndpoint", endpointId: endpoint.id, description: endpoint.description, eventTypes: endpoint.eventTypes, enabled: true });
  }

  async function confirm() {
    if (!asking) return;
    const reply = await command.run(
      asking === "pause"
        ? { t: "UpdateWebhookEndpoint", endpointId: endpoint.id, description: endpoint.description, eventTypes: endpoint.eventTypes, enabled: false }
        : { t: "DeleteWebhookEndpoint", endpointId: endpoint.id },
    );
    if (!reply) return;
    setAsking(null);
    if (asking === "delete") onDeleted?.();
  }

  return (
    <div className="endpoint-actions">
      <Button variant="ghost" onClick={() => setEditing(true)} aria-label={t("developers.webhooks.editFor", { name })} needs="developers:write" whenRefused="hide" data-testid="webhook-edit">
        {t("developers.webhooks.edit")}
      </Button>
      {endpoint.enabled ? (
        <Button onClick={() => (command.clearError(), setAsking("pause"))} aria-label={t("developers.webhooks.pause.labelFor", { name })} needs="developers:write" whenRefused="hide" data-testid="webhook-pause">
          {t("developers.webhooks.pause.button")}
        </Button>
      ) : (
        <Button onClick={() => void enable()} busy={command.busy && !asking} aria-label={t("developers.webhooks.enableFor", { name })} needs="developers:write" whenRefused="hide" data-testid="webhook-enable">
          {t("developers.webhooks.enable")}
        </Button>
      )}
      <Button variant="danger" onClick={() => (command.clearError(), setAsking("delete"))} aria-label={t("developers.webhooks.delete.labelFor", { name })} needs="developers:write" whenRefused="hide" data-testid="webhook-delete">
        {t("developers.webhooks.delete.button")}
      </Button>
      {command.error && !asking ? <ErrorAlert code={command.error.code} needs="developers:write" /> : null}
      {editing ? <EndpointDialog endpoint={endpoint} eventTypes={eventTypes} onClose={() => setEditing(false)} /> : null}
      {asking ? (
        <ConfirmDialog
          open
          onOpenChange={(next) => (next ? null : setAsking(null))}
          title={t(`developers.webhooks.${asking}.title`)}
          body={t(`developers.webhooks.${asking}.body`, { name })}
          confirmLabel={t(`developers.webhooks.${asking}.confirm`)}
          onConfirm={() => void confirm()}
          busy={command.busy}
          error={command.error}
          variant="danger"
          needs="developers:write"
        />
      ) : null}
    </div>
  );
}
