import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { ErrorAlert } from "../../components/ErrorAlert";
import { SelectField, TextField } from "../../components/Field";
import { placeError } from "../../components/fieldErrors";
import { formatMoney } from "../../components/format";
import { useBusinessToday } from "../../live/useBusinessToday";
import { UNPAID_ACTION_NEEDS } from "../../live/access";
import { useCommand } from "../../live/useCommand";
import type { Language, Transaction, UnpaidAction } from "../../protocol/wire";
import type { UnpaidActionKind } from "./unpaidActions";

const MESSAGE_MAX = 2_000;

type Props = { transaction: Transaction; action: UnpaidActionKind; onClose: () => void };

/** One follow-up of an unpaid, asked for in a small form: the day, the payer's language, or the message. */
export function UnpaidActionDialog({ transaction, action, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const today = useBusinessToday();
  const act = useCommand();
  const need = UNPAID_ACTION_NEEDS[action];
  const [date, setDate] = useState("");
  const [message, setMessage] = useState("");
  const [language, setLanguage] = useState<Language>(i18n.language === "afr" ? "afr" : "en");
  const placed = placeError(act.error, ["date", "message"] as const);
  const fieldError = (field: "date" | "message") => (placed.fields[field] ? t(`errors.${placed.fields[field]}`) : undefined);
  const words = { name: transaction.customerName, amount: formatMoney(transaction.amountCents, i18n.language) };
  const key = `transactions.followUp.actions.${action}` as const;

  function command(): UnpaidAction {
    switch (action) {
      case "Represent":
        return { t: "Represent", date };
      case "SendPayLink":
        return { t: "SendPayLink", language };
      case "RequestMandate":
        return { t: "RequestMandate", language };
      case "EmailPayer":
        return { t: "EmailPayer", message, language };
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const reply = await act.run({ t: "ActOnUnpaid", transactionId: transaction.id, action: command() });
    if (reply) onClose();
  }

  const languageField = (
    <SelectField
      label={t("transactions.followUp.language")}
      value={language}
      onChange={(event) => setLanguage(event.target.value as Language)}
      options={[
        { value: "en", label: t("languages.en") },
        { value: "afr", label: t("languages.afr") },
      ]}
      data-testid="follow-up-language"
    />
  );

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) {
          act.clearError();
          onClose();
        }
      }}
      size="sm"
      title={t(`${key}.title`, words)}
      description={t(`${key}.body`, words)}
      closeLabel={t("common.close")}
      testId="follow-up-dialog"
      needs={need}
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        {action === "Represent" ? (
          <TextField
            label={t("transactions.followUp.date")}
            type="date"
            min={today}
            value={date}
            onChange={(event) => setDate(event.target.value)}
            error={fieldError("date")}
            hint={t("transactions.followUp.dateHint")}
            required
            data-testid="follow-up-date"
          />
        ) : null}
        {action === "EmailPayer" ? (
          <div className={fieldError("message") ? "field field-invalid" : "field"}>
            <label className="field-label" htmlFor="follow-up-message">
              {t("transactions.followUp.message")}
            </label>
            <textarea
              id="follow-up-message"
              className="input textarea"
              rows={6}
              value={message}
              maxLength={MESSAGE_MAX}
              onChange={(event) => setMessage(event.target.value)}
              aria-invalid={fieldError("message") ? true : undefined}
              aria-describedby="follow-up-message-note"
              required
              data-testid="follow-up-message"
            />
            <p id="follow-up-message-note" className={fieldError("message") ? "field-error" : "field-hint"} role={fieldError("message") ? "alert" : undefined}>
              {fieldError("message") ?? t("transactions.followUp.messageHint", { left: MESSAGE_MAX - [...message].length })}
            </p>
          </div>
        ) : null}
        {action !== "Represent" ? languageField : null}
        {placed.general ? <ErrorAlert code={placed.general} needs={need} /> : null}
        <div className="form-actions">
          <Button type="button" onClick={onClose} disabled={act.busy}>
            {t("collections.keep")}
          </Button>
          <Button type="submit" variant="primary" busy={act.busy} needs={need} data-testid="follow-up-submit">
            {t(`${key}.confirm`)}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
