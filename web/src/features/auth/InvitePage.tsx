import { useAtomValue } from "jotai";
import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { Trans, useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { Link, useNavigate } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { TextField } from "../../components/Field";
import { PageSpinner } from "../../components/Spinner";
import { hrefWithPlace } from "../../live/place";
import type { ApiError } from "./api";
import { loginPathFor } from "./redirect";
import { sessionAtom } from "./session";
import { useRefreshSession } from "./useSession";
import { acceptInvite, lookUpInvite, signUpFromInvite, type Looked } from "./invites";

/**
 * The invite link: a visitor signs up from it, a signed-in user with the invited address accepts
 * it; one signed in with another address is offered `signOut` (the app's, which stays here).
 */
export function InvitePage({ signOut }: { signOut?: ReactNode }) {
  const { t } = useTranslation();
  const { token = "" } = useParams();
  const session = useAtomValue(sessionAtom);
  const [looked, setLooked] = useState<{ token: string; result: Looked } | null>(null);

  useEffect(() => {
    let current = true;
    void lookUpInvite(token).then(
      (result) => current && setLooked({ token, result }),
      () => current && setLooked({ token, result: { ok: false, error: { code: "network" } } }),
    );
    return () => {
      current = false;
    };
  }, [token]);

  const result = looked?.token === token ? looked.result : null;
  return (
    <div className="auth-card" data-testid="invite-page">
      <h1 className="auth-title">{t("screens.teamInvite")}</h1>
      {!result || session.status === "loading" ? <PageSpinner label={t("app.loading")} /> : null}
      {result && !result.ok ? (
        <Alert testId="invite-error">{t(`errors.${result.error.code}`, { defaultValue: t("errors.invite_invalid") })}</Alert>
      ) : null}
      {result?.ok && session.status !== "loading" ? (
        <>
          <p className="auth-subtitle" data-testid="invite-summary">
            <Trans
              i18nKey="teams.accept.summary"
              values={{ inviter: result.invite.invitedByName, merchant: result.invite.merchantName, role: result.invite.roleName ?? t(`teams.roles.${result.invite.role}`) }}
              components={{ strong: <strong /> }}
            />
          </p>
          {session.status === "authenticated" ? (
            <Accept token={token} invitedEmail={result.invite.email} signedInEmail={session.user?.email ?? ""} signOut={signOut} />
          ) : result.invite.hasAccount ? (
            <p className="auth-footer">
              {/* Signed in, the login page sends them back here to accept. */}
              <Link to={loginPathFor(`/account/teams/invite/${token}`)} className="link" data-testid="invite-sign-in">
                {t("teams.accept.signInFirst", { email: result.invite.email })}
              </Link>
            </p>
          ) : (
            <SignUp token={token} email={result.invite.email} />
          )}
        </>
      ) : null}
    </div>
  );
}

type AcceptProps = { token: string; invitedEmail: string; signedInEmail: string; signOut?: ReactNode };

function Accept({ token, invitedEmail, signedInEmail, signOut }: AcceptProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const wrongAddress = invitedEmail.toLowerCase() !== signedInEmail.toLowerCase();

  async function accept() {
    setBusy(true);
    const outcome = await acceptInvite(token);
    setBusy(false);
    if (!outcome.ok) return setError(outcome.error);
    // The new team opens on the same socket (its address names it): the merchant switch lists it at once.
    void navigate(hrefWithPlace("/", { merchantId: outcome.merchantId, mode: "live" }));
  }

  if (wrongAddress) {
    return (
      <>
        <Alert testId="invite-wrong-address">
          {t("teams.accept.wrongAddress", { invited: invitedEmail, signedIn: signedInEmail })}
        </Alert>
        {signOut ? <div className="form-actions form-actions-start">{signOut}</div> : null}
      </>
    );
  }
  return (
    <>
      {error ? <Alert>{t(`errors.${error.code}`)}</Alert> : null}
      <Button variant="primary" busy={busy} onClick={() => void accept()} data-testid="accept-invite">
        {t("teams.accept.join")}
      </Button>
    </>
  );
}

function SignUp({ token, email }: { token: string; email: string }) {
  const { t } = useTranslation();
  const refreshSession = useRefreshSession();
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const failure = await signUpFromInvite(token, name, password);
    setBusy(false);
    if (failure) return setError(failure);
    await refreshSession();
    void navigate("/");
  }

  const fieldError = (field: string) => (error?.field === field ? t(`errors.${error.code}`) : undefined);
  return (
    <form className="form" onSubmit={submit} noValidate>
      {error && !error.field ? <Alert>{t(`errors.${error.code}`)}</Alert> : null}
      <TextField label={t("teams.fields.email")} value={email} readOnly disabled data-testid="invite-fixed-email" />
      <TextField label={t("teams.fields.name")} value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" error={fieldError("name")} data-testid="invite-name" />
      <TextField label={t("teams.accept.password")} type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" hint={t("auth.passwordHint")} error={fieldError("password")} data-testid="invite-password" />
      <Button type="submit" variant="primary" busy={busy} className="btn-block" data-testid="invite-sign-up">
        {t("teams.accept.signUp")}
      </Button>
    </form>
  );
}
