import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { knownUnpaidCode, unpaidRemedy } from "./unpaidCodes";

/** The bank's reason for an unpaid, dispute or reversal, and what it means for the next debit. */
export function UnpaidNote({ code }: { code: string }) {
  const { t } = useTranslation();
  const known = knownUnpaidCode(code);
  const remedy = unpaidRemedy(code);
  return (
    <div className="unpaid-note">
      <Alert tone="warning" testId="unpaid-note">
        <p>
          <strong>{t("transactions.detail.unpaidTitle", { code })}</strong>
        </p>
        <p data-testid="unpaid-meaning">{known ? t(`transactions.unpaidCode.${known}`) : t("transactions.detail.unknownCode")}</p>
        {remedy === "new_mandate" ? <p>{t("transactions.detail.unpaidNewMandate")}</p> : null}
        {remedy === "retry" ? <p>{t("transactions.detail.unpaidRetry")}</p> : null}
      </Alert>
    </div>
  );
}
