import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { TextField } from "../../components/Field";
import { signIn, signInErrorFrom, type SignInError } from "./api";
import { safeRedirect } from "./redirect";
import { useRefreshSession } from "./useSession";

export function LoginPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const refreshSession = useRefreshSession();
  const redirect = safeRedirect(params.get("redirect"));
  const fromUrl = params.get("error") ? signInErrorFrom(200, `/?error=${params.get("error")}`) : null;
  const [error, setError] = useState<SignInError | null>(fromUrl);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const result = await signIn(String(form.get("email") ?? ""), String(form.get("password") ?? ""), redirect);
      if (!result.ok) {
        setError(result.error);
        return;
      }
      // The guest guard sends a signed-in visitor on to the redirect target.
      await refreshSession();
    } catch {
      setError("unknown");
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="auth-card" data-testid="login-page">
      <h1 className="auth-title">{t("auth.login.title")}</h1>
      {error ? (
        <Alert testId="login-error">{t(`auth.login.errors.${error}`)}</Alert>
      ) : null}
      <form className="form" onSubmit={submit} noValidate>
        <TextField label={t("auth.email")} name="email" type="email" autoComplete="email" required />
        <TextField label={t("auth.password")} name="password" type="password" autoComplete="current-password" required />
        <div className="auth-row">
          <Link to="/auth/forgot" className="link">
            {t("auth.login.forgot")}
          </Link>
        </div>
        <Button type="submit" variant="primary" busy={busy} className="btn-block">
          {busy ? t("auth.login.submitting") : t("auth.login.submit")}
        </Button>
      </form>
      <p className="auth-footer">
        {t("auth.login.noAccount")}{" "}
        <Link to="/auth/signup" className="link">
          {t("auth.login.createAccount")}
        </Link>
      </p>
    </div>
  );
}
