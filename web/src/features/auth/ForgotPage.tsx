import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { TextField } from "../../components/Field";
import { useRequiredFields } from "../../components/requiredFields";
import type { ApiError } from "./api";
import { requestPasswordReset } from "./recovery";

export function ForgotPage() {
  const { t } = useTranslation();
  const [error, setError] = useState<ApiError | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const required = useRequiredFields<"email">();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "").trim();
    // The server answers "sent" for every address, a blank one too, so the check is here.
    if (!required.allFilled(event.currentTarget, { email })) {
      setSent(false);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const failure = await requestPasswordReset(email);
      setError(failure);
      setSent(!failure);
    } catch {
      setError({ code: "network" });
    } finally {
      setBusy(false);
    }
  }

  const serverFieldError = error?.field === "email" ? t(`errors.${error.code}`) : undefined;
  const fieldError = required.errorFor("email") ?? serverFieldError;
  return (
    <div className="auth-card" data-testid="forgot-page">
      <h1 className="auth-title">{t("auth.forgot.title")}</h1>
      <p className="auth-subtitle">{t("auth.forgot.intro")}</p>
      {sent ? (
        <Alert tone="success" testId="forgot-sent">
          {t("auth.forgot.sent")}
        </Alert>
      ) : null}
      {error && !serverFieldError ? <Alert testId="forgot-error">{t(`errors.${error.code}`)}</Alert> : null}
      <form className="form" onSubmit={submit} noValidate>
        <TextField
          label={t("auth.email")}
          name="email"
          type="email"
          autoComplete="email"
          required
          error={fieldError}
          onChange={() => required.filledIn("email")}
        />
        <Button type="submit" variant="primary" busy={busy} className="btn-block">
          {busy ? t("auth.forgot.submitting") : t("auth.forgot.submit")}
        </Button>
      </form>
      <p className="auth-footer">
        <Link to="/auth/login" className="link">
          {t("auth.backToLogin")}
        </Link>
      </p>
    </div>
  );
}
