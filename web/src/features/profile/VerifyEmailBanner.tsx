import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { useCommand } from "../../live/useCommand";
import { useProfile } from "./useProfile";

/** Until the user follows the link we mailed, a banner above every screen offers to send it again. */
export function VerifyEmailBanner() {
  const { t } = useTranslation();
  const profile = useProfile();
  const resend = useCommand();
  const [resentTo, setResentTo] = useState<string | null>(null);
  if (!profile || profile.emailVerified) return null;
  const email = profile.user.email;

  async function send() {
    const reply = await resend.run({ t: "ResendVerification" });
    if (reply) setResentTo(email);
  }

  return (
    <div className="banner banner-warning" role="status" data-testid="verify-email-banner">
      <svg viewBox="0 0 24 24" className="icon banner-icon" aria-hidden="true">
        <rect x="3" y="5" width="18" height="14" rx="2" />
        <path d="M3 7l9 6 9-6" />
      </svg>
      <p className="banner-text">
        <strong>{t("verifyBanner.text")}</strong>{" "}
        <span className="banner-detail">
          {resend.error
            ? t(`errors.${resend.error.code}`)
            : resentTo === email
              ? t("verifyBanner.resent", { email })
              : t("verifyBanner.sentTo", { email })}
        </span>
      </p>
      <Button variant="secondary" onClick={send} busy={resend.busy} className="btn-sm" data-testid="resend-verification">
        {resend.busy ? t("verifyBanner.resending") : t("verifyBanner.resend")}
      </Button>
    </div>
  );
}
