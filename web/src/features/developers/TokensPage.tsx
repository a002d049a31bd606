import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Badge, type BadgeTone } from "../../components/Badge";
import { Button } from "../../components/Button";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { Dialog } from "../../components/Dialog";
import { EmptyState } from "../../components/EmptyState";
import { SelectField } from "../../components/Field";
import { formatDateTime } from "../../components/format";
import { PageHeader } from "../../components/PageHeader";
import { Spinner } from "../../components/Spinner";
import { useCan } from "../../live/permissions";
import { useCommand } from "../../live/useCommand";
import type { ApiToken, ApiTokenState } from "../../protocol/wire";
import { CreateTokenDialog } from "./CreateTokenDialog";
import { SecretReveal } from "./SecretReveal";
import { scopeSummary } from "./tokenForm";
import { useApiTokens } from "./useApiTokens";
import "./developers.css";
import { ErrorAlert } from "../../components/ErrorAlert";
import { RealTimeNote } from "../../components/RealTimeNote";

const TONE: Record<ApiTokenState, BadgeTone> = { active: "green", expired: "zinc", revoked: "red" };
const GRACE_HOURS = [0, 1, 24, 72, 168] as const;

/** The mode's API tokens: what each may do, who made it, when and where it was last used. */
export function TokensPage() {
  const { t } = useTranslation();
  const canRead = useCan("developers", "read");
  const canWrite = useCan("developers", "write");
  const { tokens, error, loaded } = useApiTokens();
  const [creating, setCreating] = useState(false);
  if (!canRead) {
    return (
      <section className="page" data-testid="api-tokens-page">
        <PageHeader title={t("screens.tokens")} />
        <EmptyState testId="api-tokens-no-access" title={t("developers.tokens.noAccess")} />
      </section>
    );
  }
  const create = (
    <Button variant="primary" onClick={() => setCreating(true)} needs="developers:write" data-testid="api-token-create">
      {t("developers.tokens.create")}
    </Button>
  );
  return (
    <section className="page" data-testid="api-tokens-page">
      <PageHeader title={t("screens.tokens")} subtitle={t("developers.tokens.subtitle")} actions={create} needs="developers:write" />
      <RealTimeNote />
      {error ? <Alert>{t(`errors.${error}`)}</Alert> : null}
      {!loaded ? (
        <div className="table-placeholder">
          <Spinner label={t("app.loading")} />
        </div>
      ) : tokens.length === 0 && !error ? (
        <EmptyState testId="api-tokens-empty" title={t("developers.tokens.empty")} body={t("developers.tokens.emptyHint")} />
      ) : tokens.length === 0 ? null : (
        <div className="table-card table-scroll">
          <table className="table" aria-label={t("screens.tokens")} data-testid="api-token-table">
            <thead>
              <tr>
                <th scope="col">{t("developers.tokens.columns.token")}</th>
                <th scope="col" className="hide-sm">
                  {t("developers.tokens.columns.scopes")}
                </th>
                <th scope="col" className="hide-md">
                  {t("developers.tokens.columns.createdBy")}
                </th>
                <th scope="col" className="hide-sm">
                  {t("developers.tokens.columns.lastUsed")}
                </th>
                <th scope="col" className="hide-md">
                  {t("developers.tokens.columns.expires")}
                </th>
                <th scope="col">{t("developers.tokens.columns.state")}</th>
                <th scope="col" aria-label={t("developers.tokens.columns.actions")} />
              </tr>
            </thead>
            <tbody>
              {tokens.map((token) => (
                <TokenRow key={token.id} token={token} canWrite={canWrite} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {creating ? <CreateTokenDialog onClose={() => setCreating(false)} /> : null}
    </section>
  );
}

function TokenRow({ token, canWrite }: { token: ApiToken; canWrite: boolean }) {
  const { t, i18n } = useTranslation();
  const at = (ms: number) => formatDateTime(ms, i18n.language);
  const scopes = scopeSummary(token.permissions);
  const section = (name: keyof ApiToken["permissions"]) => t(`developers.tokens.sections.${name}`);
  return (
    <tr data-testid="api-token-row" data-token-id={token.id} data-state={token.state}>
      <td>
        <div className="picked-name">{token.name}</div>
        <div className="cell-sub cell-mono" data-testid="api-token-prefix">
          {token.prefix}…
        </div>
      </td>
      <td className="hide-sm token-scopes">
        {scopes.write.length > 0 ? <div>{t("developers.tokens.writes", { sections: scopes.write.map(section).join(", ") })}</div> : null}
        {scopes.read.length > 0 ? <div className="cell-muted">{t("developers.tokens.reads", { sections: scopes.read.map(section).join(", ") })}</div> : null}
        {token.allowedAddresses.length > 0 ? <div className="cell-sub">{t("developers.tokens.onlyFrom", { addresses: token.allowedAddresses.join(", ") })}</div> : null}
      </td>
      <td className="hide-md">
        <div>{token.createdByName}</div>
        <div className="cell-sub">{at(token.createdAt)}</div>
      </td>
      <td className="hide-sm" data-testid="api-token-last-used">
        {token.lastUsedAt !== undefined ? (
          <>
            <div>{at(token.lastUsedAt)}</div>
            {token.lastUsedFrom ? <div className="cell-sub cell-mono">{token.lastUsedFrom}</div> : null}
          </>
        ) : (
          <span className="cell-muted">{t("developers.tokens.neverUsed")}</span>
        )}
      </td>
      <td className="hide-md cell-muted">{token.expiresAt !== undefined ? at(token.expiresAt) : t("developers.tokens.never")}</td>
      <td>
        <span data-testid="api-token-state" data-state={token.state}>
          <Badge tone={TONE[token.state]}>{t(`developers.tokens.state.${token.state}`)}</Badge>
        </span>
        {token.previousSecretUntil !== undefined && token.state === "active" ? (
          <div className="cell-sub">{t("developers.tokens.oldUntil", { at: at(token.previousSecretUntil) })}</div>
        ) : null}
      </td>
      <td className="cell-actions">{canWrite && token.state === "active" ? <TokenActions token={token} /> : null}</td>
    </tr>
  );
}

function TokenActions({ token }: { token: ApiToken }) {
  const { t } = useTranslation();
  const command = useCommand();
  const [asking, setAsking] = useState<"roll" | "revoke" | null>(null);
  const [grace, setGrace] = useState(24);
  const [secret, setSecret] = useState<string | null>(null);

  async function roll() {
    const reply = await command.run({ t: "RollApiToken", tokenId: token.id, graceHours: grace });
    if (reply?.t !== "ApiTokenSecret") return;
    setAsking(null);
    setSecret(reply.secret ?? null);
  }

  async function revoke() {
    if (await command.run({ t: "RevokeApiToken", tokenId: token.id })) setAsking(null);
  }

  return (
    <div className="endpoint-actions">
      <Button onClick={() => (command.clearError(), setAsking("roll"))} aria-label={t("developers.tokens.roll.labelFor", { name: token.name })} needs="developers:write" whenRefused="hide" data-testid="api-token-roll">
        {t("developers.tokens.roll.button")}
      </Button>
      <Button variant="danger" onClick={() => (command.clearError(), setAsking("revoke"))} aria-label={t("developers.tokens.revoke.labelFor", { name: token.name })} needs="developers:write" whenRefused="hide" data-testid="api-token-revoke">
        {t("developers.tokens.revoke.button")}
      </Button>
      {asking === "revoke" ? (
        <ConfirmDialog
          open
          onOpenChange={(next) => (next ? null : setAsking(null))}
          title={t("developers.tokens.revoke.title")}
          body={t("developers.tokens.revoke.body", { name: token.name })}
          confirmLabel={t("developers.tokens.revoke.confirm")}
          onConfirm={() => void revoke()}
          busy={command.busy}
          error={command.error}
          variant="danger"
          needs="developers:write"
        />
      ) : null}
      {asking === "roll" ? (
        <Dialog open onOpenChange={(next) => (next ? null : setAsking(null))} size="sm" title={t("developers.tokens.roll.title")} description={t("developers.tokens.roll.body", { name: token.name })} closeLabel={t("common.close")} testId="api-token-roll-dialog" needs="developers:write">
          <ErrorAlert code={command.error?.code} />
          <SelectField
            label={t("developers.tokens.roll.grace")}
            value={String(grace)}
            onChange={(event) => setGrace(Number(event.target.value))}
            options={GRACE_HOURS.map((hours) => ({ value: String(hours), label: t(`developers.tokens.roll.graceHours.h${hours}`) }))}
            data-testid="api-token-grace"
          />
          <div className="form-actions">
            <Button onClick={() => setAsking(null)} disabled={command.busy}>
              {t("developers.cancel")}
            </Button>
            <Button variant="primary" onClick={() => void roll()} busy={command.busy} needs="developers:write" data-testid="api-token-roll-confirm">
              {t("developers.tokens.roll.confirm")}
            </Button>
          </div>
        </Dialog>
      ) : null}
      {secret ? (
        <Dialog open onOpenChange={(open) => (open ? null : setSecret(null))} title={t("developers.tokens.roll.doneTitle")} closeLabel={t("common.close")} testId="api-token-rolled">
          <div className="form">
            <SecretReveal label={t("developers.tokens.secretLabel")} secret={secret} hint={t("developers.tokens.secretOnce")} testId="api-token-secret" />
            <div className="form-actions">
              <Button variant="primary" onClick={() => setSecret(null)} data-testid="api-token-secret-done">
                {t("developers.done")}
              </Button>
            </div>
          </div>
        </Dialog>
      ) : null}
    </div>
  );
}
