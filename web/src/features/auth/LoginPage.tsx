import { useAtom } from "jotai";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { Link } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { TextField } from "../../components/Field";
import { useRequiredFields } from "../../components/requiredFields";
import { fetchProviders, finishLinkSignIn, signIn, signInErrorFrom, type Provider, type SecondFactor, type SignInError } from "./api";
import { EmailLinkForm } from "./EmailLinkForm";
import { pendingSignInAtom, type PendingSignIn } from "./pendingSignIn";
import { safeRedirect } from "./redirect";
import { useRefreshSession } from "./useSession";

/**
 * The server's sign-in providers. A list that cannot be fetched sends the visitor to the error
 * page (thrown to the route's error element): signing in cannot work then anyway.
 */
function useProviders(): Record<string, Provider> | null {
  const [providers, setProviders] = useState<Record<string, Provider> | null>(null);
  const [failure, setFailure] = useState<Error | null>(null);
  useEffect(() => {
    let current = true;
    fetchProviders().then(
      (found) => current && setProviders(found),
      (error: unknown) => current && setFailure(error instanceof Error ? error : new Error(String(error))),
    );
    return () => {
      current = false;
    };
  }, []);
  if (failure) throw failure;
  return providers;
}

export function LoginPage() {
  const { t } = useTranslation();
  const providers = useProviders();
  const [params] = useSearchParams();
  const refreshSession = useRefreshSession();
  const redirect = safeRedirect(params.get("redirect"));
  const fromUrl = params.get("error") ? signInErrorFrom(200, `/?error=${params.get("error")}`) : null;
  const [error, setError] = useState<SignInError | null>(fromUrl);
  const [busy, setBusy] = useState(false);
  // Set while the server waits for the second factor: the code step shows instead of the password form.
  const [pending, setPending] = useAtom(pendingSignInAtom);
  const required = useRequiredFields<"email" | "password" | "code">();
  // Asking for a sign-in link instead of giving a password.
  const [linkMode, setLinkMode] = useState(false);
  // A followed sign-in link of a user with two-factor sign-in: the server holds the link
  // until the code comes (a backup code will do too).
  const afterLink = params.get("via") === "email" && !pending;
  const [backupInstead, setBackupInstead] = useState(false);

  async function finishLink(factor: SecondFactor) {
    setBusy(true);
    setError(null);
    try {
      const result = await finishLinkSignIn(factor);
      if (!result.ok) {
        // Without an accepted code the server asks again: the code was not right.
        setError(result.error === "TwoFactorRequired" ? "TwoFactorInvalid" : result.error);
        return;
      }
      // A full load on the page the link was for, signed in.
      window.location.replace(safeRedirect(result.url));
    } catch {
      setError("unknown");
    } finally {
      setBusy(false);
    }
  }

  async function attempt(credentials: PendingSignIn, factor?: SecondFactor) {
    setBusy(true);
    setError(null);
    try {
      const result = await signIn(credentials.email, credentials.password, redirect, factor);
      if (!result.ok) {
        if (result.error === "TwoFactorRequired") setPending(credentials);
        else setError(result.error);
        // Wrong password after all (changed meanwhile): back to the first step.
        if (result.error === "CredentialsSignin") setPending(null);
        return;
      }
      setPending(null);
      // The guest guard sends a signed-in visitor on to the redirect target.
      await refreshSession();
    } catch {
      setError("unknown");
    } finally {
      setBusy(false);
    }
  }

  function submitPassword(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const credentials = { email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") };
    if (!required.allFilled(event.currentTarget, credentials)) return;
    void attempt(credentials);
  }

  function submitCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "").replace(/\s+/g, "");
    // An empty code would come back as "enter the code" with nothing on screen changing.
    if (!required.allFilled(event.currentTarget, { code })) return;
    if (afterLink) void finishLink(backupInstead ? { backupCode: code } : { code });
    else if (pending) void attempt(pending, { code });
  }

  const errorAlert = error ? <Alert testId="login-error">{t(`auth.login.errors.${error}`)}</Alert> : null;
  const backupLink = `/auth/2fa/backup${params.get("redirect") ? `?${new URLSearchParams({ redirect }).toString()}` : ""}`;

  if (linkMode && !pending && !afterLink) {
    return (
      <EmailLinkForm
        callbackUrl={redirect}
        onBack={() => {
          setError(null);
          setLinkMode(false);
        }}
      />
    );
  }

  if (pending || afterLink) {
    return (
      <div className="auth-card" data-testid="login-page">
        <h1 className="auth-title">{t("auth.login.codeTitle")}</h1>
        <p className="auth-subtitle">{t("auth.login.codeIntro")}</p>
        {errorAlert}
        <form className="form" onSubmit={submitCode} noValidate data-testid="login-code-form">
          {backupInstead ? (
            <TextField key="backup" label={t("auth.backup.code")} name="code" autoComplete="off" autoFocus {...required.inputFor("code")} data-testid="login-backup-code" />
          ) : (
            <TextField
              key="code"
              label={t("auth.login.code")}
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]*"
              maxLength={6}
              className="input-code"
              autoFocus
              {...required.inputFor("code")}
            />
          )}
          <Button type="submit" variant="primary" busy={busy} className="btn-block">
            {busy ? t("auth.login.verifying") : t("auth.login.verify")}
          </Button>
        </form>
        <p className="auth-footer auth-footer-stack">
          {afterLink ? (
            <button type="button" className="link link-button" onClick={() => setBackupInstead(!backupInstead)} data-testid="use-backup-code">
              {backupInstead ? t("auth.backup.useApp") : t("auth.login.useBackupCode")}
            </button>
          ) : (
            <Link to={backupLink} className="link" data-testid="use-backup-code">
              {t("auth.login.useBackupCode")}
            </Link>
          )}
          {afterLink ? (
            <Link to="/auth/login" className="link" onClick={() => setError(null)}>
              {t("auth.login.startOver")}
            </Link>
          ) : (
            <button type="button" className="link link-button" onClick={() => setPending(null)}>
              {t("auth.login.startOver")}
            </button>
          )}
        </p>
      </div>
    );
  }

  return (
    <div className="auth-card" data-testid="login-page">
      <h1 className="auth-title">{t("auth.login.title")}</h1>
      {params.get("reset") === "done" && !error ? (
        <Alert tone="success" testId="login-reset-done">
          {t("auth.login.resetDone")}
        </Alert>
      ) : null}
      {errorAlert}
      <form className="form" onSubmit={submitPassword} noValidate>
        <TextField
          label={t("auth.email")}
          name="email"
          type="email"
          autoComplete="email"
          {...required.inputFor("email")}
        />
        <TextField
          label={t("auth.password")}
          name="password"
          type="password"
          autoComplete="current-password"
          {...required.inputFor("password")}
        />
        <div className="auth-row">
          <Link to="/auth/forgot" className="link">
            {t("auth.login.forgot")}
          </Link>
        </div>
        <Button type="submit" variant="primary" busy={busy} className="btn-block">
          {busy ? t("auth.login.submitting") : t("auth.login.submit")}
        </Button>
      </form>
      {providers?.email ? (
        <Button
          className="btn-block auth-alternative"
          onClick={() => {
            setError(null);
            setLinkMode(true);
          }}
          data-testid="login-by-link"
        >
          {t("auth.login.link.choose")}
        </Button>
      ) : null}
      <p className="auth-footer">
        {t("auth.login.noAccount")}{" "}
        <Link to="/auth/signup" className="link">
          {t("auth.login.createAccount")}
        </Link>
      </p>
    </div>
  );
}
