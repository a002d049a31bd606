import { useAtomValue } from "jotai";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { SelectField, TextField } from "../../components/Field";
import { placeError } from "../../components/fieldErrors";
import { todayInSouthAfrica } from "../../components/format";
import { identityAtom } from "../../live/atoms";
import { useCommand } from "../../live/useCommand";
import type { Access, ErrorCode, Permissions } from "../../protocol/wire";
import { SecretReveal } from "./SecretReveal";
import { TOKEN_SECTIONS, accessChoices, addressList, expiryOf, noAccess } from "./tokenForm";
import { ErrorAlert } from "../../components/ErrorAlert";
import { RoleLock } from "../../components/RoleLock";

const FIELDS = ["name", "mode", "expiresAt", "allowedAddresses"] as const;
type Field = (typeof FIELDS)[number];
const BY_CODE: Partial<Record<ErrorCode, Field>> = { date_in_past: "expiresAt" };

/** Makes an API token for this mode; its secret is shown once, then only its prefix. */
export function CreateTokenDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? null : onClose())}
      title={t("developers.tokens.createTitle")}
      description={t("developers.tokens.createDescription")}
      closeLabel={t("common.close")}
      testId="api-token-dialog"
    >
      {secret ? (
        <div className="form">
          <SecretReveal label={t("developers.tokens.secretLabel")} secret={secret} hint={t("developers.tokens.secretOnce")} testId="api-token-secret" />
          <div className="form-actions">
            <Button variant="primary" onClick={onClose} data-testid="api-token-secret-done">
              {t("developers.done")}
            </Button>
          </div>
        </div>
      ) : (
        // Only the form locks when the role changes: a secret already made stays readable.
        <RoleLock needs="developers:write">
          <TokenForm onMade={setSecret} onCancel={onClose} />
        </RoleLock>
      )}
    </Dialog>
  );
}

function TokenForm({ onMade, onCancel }: { onMade: (secret: string) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const identity = useAtomValue(identityAtom);
  const mode = identity?.mode ?? "test";
  const own = identity?.merchant.permissions;
  const create = useCommand();
  const [name, setName] = useState("");
  const [grants, setGrants] = useState<Permissions>(noAccess);
  const [expiry, setExpiry] = useState("");
  const [addresses, setAddresses] = useState("");
  const placed = placeError(create.error, FIELDS, BY_CODE);
  const errorOf = (field: Field) => (placed.fields[field] ? t(`errors.${placed.fields[field]}`) : undefined);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const reply = await create.run({
      t: "CreateApiToken",
      name: name.trim(),
      mode,
      permissions: grants,
      expiresAt: expiryOf(expiry),
      allowedAddresses: addressList(addresses),
    });
    if (reply?.t === "ApiTokenSecret" && reply.secret) onMade(reply.secret);
  }

  return (
    <form className="form" onSubmit={submit} noValidate data-testid="api-token-form">
      {placed.general ? <ErrorAlert code={placed.general} /> : null}
      <fieldset className="form-fieldset" disabled={create.busy}>
        <TextField
          label={t("developers.tokens.name")}
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={errorOf("name")}
          hint={t("developers.tokens.nameHint")}
          autoComplete="off"
          required
          data-testid="api-token-name"
        />
        <p className="field-hint" data-testid="api-token-mode">
          {t(`developers.tokens.modeNote.${mode}`)}
        </p>
        <fieldset className="form-section">
          <legend>{t("developers.tokens.access")}</legend>
          <p className="field-hint">{t("developers.tokens.accessHint")}</p>
          <div className="token-access-grid">
            {TOKEN_SECTIONS.map((section) => (
              <SelectField
                key={section}
                label={t(`developers.tokens.sections.${section}`)}
                value={grants[section]}
                onChange={(event) => setGrants((current) => ({ ...current, [section]: event.target.value as Access }))}
                options={accessChoices(own?.[section] ?? "none").map((access) => ({ value: access, label: t(`developers.tokens.accessLevel.${access}`) }))}
                data-testid={`api-token-access-${section}`}
              />
            ))}
          </div>
        </fieldset>
        <div className="form-grid">
          <TextField
            label={t("developers.tokens.expires")}
            type="date"
            value={expiry}
            min={todayInSouthAfrica()}
            onChange={(event) => setExpiry(event.target.value)}
            error={errorOf("expiresAt")}
            hint={t("developers.tokens.expiresHint")}
            data-testid="api-token-expires"
          />
          <TextField
            label={t("developers.tokens.addresses")}
            value={addresses}
            onChange={(event) => setAddresses(event.target.value)}
            error={errorOf("allowedAddresses")}
            hint={t("developers.tokens.addressesHint")}
            placeholder="203.0.113.7, 198.51.100.0/24"
            autoComplete="off"
            data-testid="api-token-addresses"
          />
        </div>
      </fieldset>
      <div className="form-actions">
        <Button onClick={onCancel} disabled={create.busy}>
          {t("developers.cancel")}
        </Button>
        <Button type="submit" variant="primary" busy={create.busy} needs="developers:write" data-testid="api-token-submit">
          {t("developers.tokens.create")}
        </Button>
      </div>
    </form>
  );
}
