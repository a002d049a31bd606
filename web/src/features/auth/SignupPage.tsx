import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { TextField } from "../../components/Field";
import { signUp, type SignUpError, type SignUpInput } from "./api";
import { useRefreshSession } from "./useSession";

const FIELDS: (keyof SignUpInput)[] = ["name", "businessName", "email", "password"];

export function SignupPage() {
  const { t } = useTranslation();
  const refreshSession = useRefreshSession();
  const [error, setError] = useState<SignUpError | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = Object.fromEntries(FIELDS.map((field) => [field, String(form.get(field) ?? "")])) as SignUpInput;
    setBusy(true);
    setError(null);
    try {
      const failure = await signUp(input);
      if (failure) {
        setError(failure);
        return;
      }
      await refreshSession();
    } catch {
      setError({ code: "network" });
    } finally {
      setBusy(false);
    }
  }

  const fieldError = (field: keyof SignUpInput) =>
    error?.field === field ? t(`errors.${error.code}`) : undefined;
  const generalError = error && !FIELDS.includes(error.field as keyof SignUpInput) ? t(`errors.${error.code}`) : null;

  return (
    <div className="auth-card" data-testid="signup-page">
      <h1 className="auth-title">{t("auth.signup.title")}</h1>
      <p className="auth-subtitle">{t("auth.signup.subtitle")}</p>
      {generalError ? <Alert testId="signup-error">{generalError}</Alert> : null}
      <form className="form" onSubmit={submit} noValidate>
        <TextField label={t("auth.signup.name")} name="name" autoComplete="name" error={fieldError("name")} />
        <TextField
          label={t("auth.signup.businessName")}
          name="businessName"
          autoComplete="organization"
          error={fieldError("businessName")}
        />
        <TextField label={t("auth.email")} name="email" type="email" autoComplete="email" error={fieldError("email")} />
        <TextField
          label={t("auth.password")}
          name="password"
          type="password"
          autoComplete="new-password"
          hint={t("auth.passwordHint")}
          error={fieldError("password")}
        />
        <Button type="submit" variant="primary" busy={busy} className="btn-block">
          {busy ? t("auth.signup.submitting") : t("auth.signup.submit")}
        </Button>
      </form>
      <p className="auth-footer">
        {t("auth.signup.haveAccount")}{" "}
        <Link to="/auth/login" className="link">
          {t("auth.signup.signIn")}
        </Link>
      </p>
    </div>
  );
}
