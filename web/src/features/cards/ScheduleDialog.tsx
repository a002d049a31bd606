import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { SelectField, TextField } from "../../components/Field";
import { placeError } from "../../components/fieldErrors";
import { useCommand } from "../../live/useCommand";
import type { Card, PageInterval } from "../../protocol/wire";
import { CHARGE_REFERENCE_MAX, formatExpiry, scheduleFrom, type ScheduleDraft, type ScheduleErrors, type ScheduleField } from "./cardView";
import { ErrorAlert } from "../../components/ErrorAlert";

type ScheduleDialogProps = { card: Card; today: string; onClose: () => void };

const FIELDS: readonly ScheduleField[] = ["amountCents", "reference", "startDate"];

/** Puts a card on file on a recurring charge the scheduler makes (or replaces its schedule). */
export function ScheduleDialog({ card, today, onClose }: ScheduleDialogProps) {
  const { t } = useTranslation();
  const schedule = useCommand();
  const current = card.schedule;
  const [draft, setDraft] = useState<ScheduleDraft>({
    amount: current ? (current.amountCents / 100).toFixed(2) : "",
    interval: current?.interval ?? "monthly",
    reference: current?.reference ?? "",
    startDate: today,
  });
  const [local, setLocal] = useState<ScheduleErrors>({});
  const placed = placeError(schedule.error, FIELDS, { invalid_amount: "amountCents", date_in_past: "startDate", invalid_date: "startDate" });
  const errors: ScheduleErrors = { ...placed.fields, ...local };
  const errorOf = (field: ScheduleField) => (errors[field] ? t(`errors.${errors[field]}`) : undefined);

  async function submit(event: FormEvent) {
    event.preventDefault();
    schedule.clearError();
    const built = scheduleFrom(card.id, draft, today);
    setLocal(built.errors);
    if (!built.command) return;
    const reply = await schedule.run(built.command);
    if (reply?.t === "Committed") onClose();
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      size="sm"
      title={t("cards.schedule.title")}
      description={t("cards.schedule.body", { brand: t(`cards.brand.${card.brand}`), last: card.lastFour, expiry: formatExpiry(card), name: card.customerName })}
      closeLabel={t("common.close")}
      testId="schedule-dialog"
      needs="payments:write"
    >
      <form className="form" onSubmit={submit} noValidate data-testid="schedule-form">
        <ErrorAlert code={placed.general} />
        <TextField
          label={t("cards.charge.amount")}
          value={draft.amount}
          onChange={(event) => setDraft({ ...draft, amount: event.target.value })}
          error={errorOf("amountCents")}
          inputMode="decimal"
          placeholder="0.00"
          required
          autoFocus
          data-testid="schedule-amount"
        />
        <SelectField
          label={t("cards.schedule.interval")}
          value={draft.interval}
          onChange={(event) => setDraft({ ...draft, interval: event.target.value as PageInterval })}
          options={[
            { value: "monthly", label: t("cards.schedule.intervals.monthly") },
            { value: "annually", label: t("cards.schedule.intervals.annually") },
          ]}
          data-testid="schedule-interval"
        />
        <TextField
          label={t("cards.charge.reference")}
          value={draft.reference}
          onChange={(event) => setDraft({ ...draft, reference: event.target.value })}
          error={errorOf("reference")}
          hint={t("cards.charge.referenceHint")}
          maxLength={CHARGE_REFERENCE_MAX}
          autoComplete="off"
          required
          data-testid="schedule-reference"
        />
        <TextField
          label={t("cards.schedule.start")}
          type="date"
          value={draft.startDate}
          min={today}
          onChange={(event) => setDraft({ ...draft, startDate: event.target.value })}
          error={errorOf("startDate")}
          hint={t("cards.schedule.retryHint")}
          required
          data-testid="schedule-start"
        />
        <div className="form-actions">
          <Button onClick={onClose} disabled={schedule.busy}>
            {t("cards.charge.cancel")}
          </Button>
          <Button type="submit" variant="primary" busy={schedule.busy} needs="payments:write" data-testid="schedule-submit">
            {t("cards.schedule.submit")}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
