import { useAtom, useAtomValue } from "jotai";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { Link, Navigate } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { TextField } from "../../components/Field";
import { useRequiredFields } from "../../components/requiredFields";
import { signIn, type SignInError } from "./api";
import { pendingSignInAtom } from "./pendingSignIn";
import { safeRedirect } from "./redirect";
import { sessionAtom } from "./session";
import { useRefreshSession } from "./useSession";

/** Signs in with e-mail, password and a backup code, for when the phone with the app is not at hand. */
export function BackupCodePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const redirect = safeRedirect(params.get("redirect"));
  const session = useAtomValue(sessionAtom);
  const refreshSession = useRefreshSession();
  const [pending, setPending] = useAtom(pendingSignInAtom);
  const [error, setError] = useState<SignInError | null>(null);
  const [busy, setBusy] = useState(false);
  const required = useRequiredFields<"email" | "password" | "backupCode">();

  if (session.status === "authenticated") return <Navigate replace to={redirect} />;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "");
    const password = String(form.get("password") ?? "");
    const backupCode = String(form.get("backupCode") ?? "").trim();
    if (!required.allFilled(event.currentTarget, { email, password, backupCode })) return;
    setBusy(true);
    setError(null);
    try {
      const result = await signIn(email, password, redirect, { backupCode });
      if (!result.ok) {
        // Without a code the server asks for one: the code given was empty or not accepted.
        setError(result.error === "TwoFactorRequired" ? "TwoFactorInvalid" : result.error);
        return;
      }
      setPending(null);
      await refreshSession();
    } catch {
      setError("unknown");
    } finally {
      setBusy(false);
    }
  }

  const message = error === "TwoFactorInvalid" ? t("auth.backup.errors.TwoFactorInvalid") : error ? t(`auth.login.errors.${error}`) : null;
  return (
    <div className="auth-card" data-testid="backup-page">
      <h1 className="auth-title">{t("auth.backup.title")}</h1>
      <p className="auth-subtitle">{t("auth.backup.intro")}</p>
      {message ? <Alert testId="backup-error">{message}</Alert> : null}
      <form className="form" onSubmit={submit} noValidate>
        <TextField
          label={t("auth.email")}
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={pending?.email}
          {...required.inputFor("email")}
        />
        <TextField
          label={t("auth.password")}
          name="password"
          type="password"
          autoComplete="current-password"
          defaultValue={pending?.password}
          {...required.inputFor("password")}
        />
        <TextField
          label={t("auth.backup.code")}
          name="backupCode"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          className="input-code"
          autoFocus={Boolean(pending)}
          {...required.inputFor("backupCode")}
        />
        <Button type="submit" variant="primary" busy={busy} className="btn-block">
          {busy ? t("auth.backup.submitting") : t("auth.backup.submit")}
        </Button>
      </form>
      <p className="auth-footer">
        <Link to={`/auth/login${params.get("redirect") ? `?${new URLSearchParams({ redirect }).toString()}` : ""}`} className="link">
          {pending ? t("auth.backup.useApp") : t("auth.backToLogin")}
        </Link>
      </p>
    </div>
  );
}
