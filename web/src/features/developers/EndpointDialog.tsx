import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { CheckboxField } from "../../components/CheckboxField";
import { Dialog } from "../../components/Dialog";
import { TextField } from "../../components/Field";
import { placeError } from "../../components/fieldErrors";
import { useCommand } from "../../live/useCommand";
import type { ErrorCode, WebhookEndpoint } from "../../protocol/wire";
import { SecretReveal } from "./SecretReveal";
import { ErrorAlert } from "../../components/ErrorAlert";
import { RoleLock } from "../../components/RoleLock";

const FIELDS = ["url", "description", "eventTypes"] as const;
type Field = (typeof FIELDS)[number];
const BY_CODE: Partial<Record<ErrorCode, Field>> = {
  webhook_address_forbidden: "url",
  webhook_address_unresolved: "url",
  invalid_url: "url",
  unknown_event_type: "eventTypes",
};

type EndpointDialogProps = {
  /** The endpoint to edit; none adds one. */
  endpoint?: WebhookEndpoint;
  eventTypes: string[];
  onClose: () => void;
};

/** Adds an endpoint (and shows its signing secret once) or changes what one is for. */
export function EndpointDialog({ endpoint, eventTypes, onClose }: EndpointDialogProps) {
  const { t } = useTranslation();
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? null : onClose())}
      title={t(endpoint ? "developers.webhooks.editTitle" : "developers.webhooks.addTitle")}
      description={t("developers.webhooks.formDescription")}
      closeLabel={t("common.close")}
      testId="webhook-endpoint-dialog"
    >
      {secret ? (
        <div className="form">
          <SecretReveal label={t("developers.webhooks.secretLabel")} secret={secret} hint={t("developers.webhooks.secretOnce")} testId="webhook-secret" />
          <div className="form-actions">
            <Button variant="primary" onClick={onClose} data-testid="webhook-secret-done">
              {t("developers.done")}
            </Button>
          </div>
        </div>
      ) : (
        // Only the form locks when the role changes: a secret already made stays readable.
        <RoleLock needs="developers:write">
          <EndpointForm endpoint={endpoint} eventTypes={eventTypes} onSaved={(made) => (made ? setSecret(made) : onClose())} onCancel={onClose} />
        </RoleLock>
      )}
    </Dialog>
  );
}

type EndpointFormProps = {
  endpoint?: WebhookEndpoint;
  eventTypes: string[];
  onSaved: (secret: string | null) => void;
  onCancel: () => void;
};

function EndpointForm({ endpoint, eventTypes, onSaved, onCancel }: EndpointFormProps) {
  const { t } = useTranslation();
  const save = useCommand();
  const [url, setUrl] = useState(endpoint?.url ?? "");
  const [description, setDescription] = useState(endpoint?.description ?? "");
  const [chosen, setChosen] = useState<string[]>(endpoint?.eventTypes ?? []);
  const placed = placeError(save.error, FIELDS, BY_CODE);
  const errorOf = (field: Field) => (placed.fields[field] ? t(`errors.${placed.fields[field]}`) : undefined);

  function toggle(type: string, on: boolean) {
    setChosen((current) => (on ? [...current, type] : current.filter((known) => known !== type)));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const types = eventTypes.filter((type) => chosen.includes(type));
    const reply = await save.run(
      endpoint
        ? { t: "UpdateWebhookEndpoint", endpointId: endpoint.id, description, eventTypes: types, enabled: endpoint.enabled }
        : { t: "CreateWebhookEndpoint", url: url.trim(), description, eventTypes: types },
    );
    if (reply?.t === "WebhookSecret") onSaved(reply.secret ?? null);
  }

  const allChosen = eventTypes.every((type) => chosen.includes(type));
  return (
    <form className="form" onSubmit={submit} noValidate data-testid="webhook-endpoint-form">
      {placed.general ? <ErrorAlert code={placed.general} /> : null}
      <fieldset className="form-fieldset" disabled={save.busy}>
        {endpoint ? (
          <p className="endpoint-url-fixed" data-testid="webhook-url-fixed">
            <span className="field-label">{t("developers.webhooks.url")}</span> <code>{endpoint.url}</code>
          </p>
        ) : (
          <TextField
            label={t("developers.webhooks.url")}
            type="url"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            error={errorOf("url")}
            hint={t("developers.webhooks.urlHint")}
            placeholder="https://shop.example.co.za/webhooks"
            autoComplete="off"
            required
            data-testid="webhook-url"
          />
        )}
        <TextField
          label={t("developers.webhooks.description")}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          error={errorOf("description")}
          autoComplete="off"
          data-testid="webhook-description"
        />
        <fieldset className="form-section">
          <legend>{t("developers.webhooks.eventTypes")}</legend>
          <CheckboxField
            label={t("developers.webhooks.allEvents")}
            checked={allChosen}
            onChange={(on) => setChosen(on ? [...eventTypes] : [])}
            testId="webhook-all-events"
          />
          <div className="event-type-grid" data-testid="webhook-event-types">
            {eventTypes.map((type) => (
              <CheckboxField key={type} label={type} checked={chosen.includes(type)} onChange={(on) => toggle(type, on)} testId={`webhook-event-${type}`} />
            ))}
          </div>
          {placed.fields.eventTypes ? (
            <p className="field-error" role="alert" data-testid="webhook-event-types-error">
              {errorOf("eventTypes")}
            </p>
          ) : null}
        </fieldset>
      </fieldset>
      <div className="form-actions">
        <Button onClick={onCancel} disabled={save.busy}>
          {t("developers.cancel")}
        </Button>
        <Button type="submit" variant="primary" busy={save.busy} needs="developers:write" data-testid="webhook-save">
          {t(endpoint ? "developers.webhooks.save" : "developers.webhooks.add")}
        </Button>
      </div>
    </form>
  );
}
