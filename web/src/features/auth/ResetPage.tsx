import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { Link, useNavigate } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { TextField } from "../../components/Field";
import type { ApiError } from "./api";
import { checkResetLink, resetPassword } from "./recovery";
import { safeRedirect } from "./redirect";

type ResetError = ApiError | { code: "mismatch"; field: "confirm" };

export function ResetPage() {
  const { t } = useTranslation();
  const { token = "" } = useParams();
  const navigate = useNavigate();
  const [error, setError] = useState<ResetError | null>(null);
  const [busy, setBusy] = useState(false);

  // A used or expired link says so at once, not after a new password was typed.
  useEffect(() => {
    let current = true;
    void checkResetLink(token).then(
      (refused) => {
        if (current && refused?.code === "invalid_token") setError(refused);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [token]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password") ?? "");
    if (password !== String(form.get("confirm") ?? "")) {
      setError({ code: "mismatch", field: "confirm" });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const result = await resetPassword(token, password);
      if (result.ok) {
        // No automatic sign-in: the login page says the password changed.
        navigate(safeRedirect(result.url, "/auth/login?reset=done"), { replace: true });
        return;
      }
      setError(result.error);
    } catch {
      setError({ code: "network" });
    } finally {
      setBusy(false);
    }
  }

  const message = (code: ResetError["code"]) => (code === "mismatch" ? t("auth.passwordMismatch") : t(`errors.${code}`));
  const passwordError = error && (error.field === "password" || ["weak_password", "common_password", "too_long"].includes(error.code));
  const invalidLink = error?.code === "invalid_token";

  return (
    <div className="auth-card" data-testid="reset-page">
      <h1 className="auth-title">{t("auth.reset.title")}</h1>
      <p className="auth-subtitle">{t("auth.reset.intro")}</p>
      {invalidLink ? (
        <Alert testId="reset-error">
          {t("auth.reset.invalidLink")}{" "}
          <Link to="/auth/forgot" className="link">
            {t("auth.reset.newLink")}
          </Link>
        </Alert>
      ) : error && !passwordError && error.field !== "confirm" ? (
        <Alert testId="reset-error">{message(error.code)}</Alert>
      ) : null}
      {/* A dead link takes no new password: the alert above offers a new link. */}
      {invalidLink ? null : (
        <form className="form" onSubmit={submit} noValidate>
          <TextField
            label={t("auth.reset.password")}
            name="password"
            type="password"
            autoComplete="new-password"
            hint={t("auth.passwordHint")}
            error={passwordError && error ? message(error.code) : undefined}
            required
          />
          <TextField
            label={t("auth.reset.confirm")}
            name="confirm"
            type="password"
            autoComplete="new-password"
            error={error?.field === "confirm" ? message(error.code) : undefined}
            required
          />
          <Button type="submit" variant="primary" busy={busy} className="btn-block">
            {busy ? t("auth.reset.submitting") : t("auth.reset.submit")}
          </Button>
        </form>
      )}
      <p className="auth-footer">
        <Link to="/auth/login" className="link">
          {t("auth.backToLogin")}
        </Link>
      </p>
    </div>
  );
}
