import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { TextField } from "../../components/Field";
import { useRequiredFields } from "../../components/requiredFields";
import type { ErrorCode } from "../../protocol/wire";
import { requestSignInLink } from "./api";

/** Asks for a sign-in link by e-mail instead of a password; says the same for any address. */
export function EmailLinkForm({ callbackUrl, onBack }: { callbackUrl: string; onBack: () => void }) {
  const { t } = useTranslation();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<ErrorCode | null>(null);
  const [busy, setBusy] = useState(false);
  const required = useRequiredFields<"email">();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "").trim();
    if (!required.allFilled(event.currentTarget, { email })) return;
    setBusy(true);
    setError(null);
    try {
      const result = await requestSignInLink(email, callbackUrl);
      if (result.ok) setSentTo(email);
      else setError(result.code);
    } catch {
      setError("internal");
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="auth-card" data-testid="login-page">
      <h1 className="auth-title">{t("auth.login.link.title")}</h1>
      <p className="auth-subtitle">{t("auth.login.link.intro")}</p>
      {sentTo ? (
        <Alert tone="success" testId="login-link-sent">
          {t("auth.login.link.sent", { email: sentTo })}
        </Alert>
      ) : null}
      {error ? <Alert testId="login-link-error">{t(`errors.${error}`)}</Alert> : null}
      <form className="form" onSubmit={(event) => void submit(event)} noValidate data-testid="login-link-form">
        <TextField label={t("auth.email")} name="email" type="email" autoComplete="email" autoFocus {...required.inputFor("email")} />
        <Button type="submit" variant="primary" busy={busy} className="btn-block" data-testid="login-link-submit">
          {busy ? t("auth.login.link.sending") : sentTo ? t("auth.login.link.again") : t("auth.login.link.send")}
        </Button>
      </form>
      <p className="auth-footer">
        <button type="button" className="link link-button" onClick={onBack} data-testid="login-with-password">
          {t("auth.login.link.withPassword")}
        </button>
      </p>
    </div>
  );
}
