import { useAtomValue } from "jotai";
import { useEffect, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { Link } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { PageSpinner } from "../../components/Spinner";
import { verifyEmail, type VerifyResult } from "./recovery";
import { sessionAtom } from "./session";

/** Follows an e-mail verification link; open to signed-in and signed-out visitors alike. */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const { token = "" } = useParams();
  const session = useAtomValue(sessionAtom);
  const [result, setResult] = useState<{ token: string; outcome: VerifyResult } | null>(null);

  useEffect(() => {
    let current = true;
    void verifyEmail(token).then((outcome) => {
      if (current) setResult({ token, outcome });
    });
    return () => {
      current = false;
    };
  }, [token]);

  const outcome = result?.token === token ? result.outcome : null;
  const signedIn = session.status === "authenticated";
  return (
    <div className="auth-card" data-testid="verify-email-page">
      <h1 className="auth-title">{t("screens.emailVerify")}</h1>
      {!outcome ? <PageSpinner label={t("auth.verify.checking")} /> : null}
      {outcome?.ok ? (
        <Alert tone="success" testId="verify-email-done">
          <Trans i18nKey="auth.verify.done" values={{ email: outcome.email }} components={{ strong: <strong /> }} />
        </Alert>
      ) : null}
      {outcome && !outcome.ok ? (
        <>
          <Alert testId="verify-email-error">
            {outcome.error.code === "invalid_token" ? t("auth.verify.invalid") : t(`errors.${outcome.error.code}`)}
          </Alert>
          {outcome.error.code === "invalid_token" ? <p className="auth-subtitle">{t("auth.verify.invalidHint")}</p> : null}
        </>
      ) : null}
      {outcome ? (
        <p className="auth-footer">
          <Link to={signedIn ? "/" : "/auth/login"} className="link">
            {signedIn ? t("auth.verify.toDashboard") : t("auth.verify.toLogin")}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
