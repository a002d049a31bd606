import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { SelectField, TextField } from "../../components/Field";
import { formatMoney } from "../../components/format";
import { useCommand } from "../../live/useCommand";
import type { PayoutInterval, PayoutSchedule } from "../../protocol/wire";
import { parseRand } from "./usePayouts";
import { ErrorAlert } from "../../components/ErrorAlert";
import { RoleLock } from "../../components/RoleLock";

const INTERVALS: PayoutInterval[] = ["off", "daily", "weekly", "monthly"];
const WEEKDAYS = ["1", "2", "3", "4", "5"] as const;

export function ScheduleForm({ schedule, feeCents }: { schedule: PayoutSchedule; feeCents: number }) {
  const { t, i18n } = useTranslation();
  const save = useCommand();
  const [interval, setInterval] = useState<PayoutInterval>(schedule.interval);
  const [weekday, setWeekday] = useState(schedule.weekday || 5);
  const [day, setDay] = useState(schedule.dayOfMonth || 25);
  const [minimum, setMinimum] = useState(schedule.minimumCents ? (schedule.minimumCents / 100).toFixed(2) : "500.00");
  const [badMinimum, setBadMinimum] = useState(false);
  const [saved, setSaved] = useState(false);
  const fieldCode = (name: string) => save.error?.fields?.find((f) => f.field === name)?.code;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    const minimumCents = interval === "off" ? 0 : parseRand(minimum);
    setBadMinimum(minimumCents === null);
    if (minimumCents === null) return;
    const next: PayoutSchedule = { interval, weekday: interval === "weekly" ? weekday : 0, dayOfMonth: interval === "monthly" ? day : 0, minimumCents };
    if (await save.run({ t: "SetPayoutSchedule", schedule: next })) setSaved(true);
  }

  const edited =
    interval !== schedule.interval || weekday !== (schedule.weekday || 5) || day !== (schedule.dayOfMonth || 25) || parseRand(minimum) !== (schedule.minimumCents || 50_000);
  const weekdayCode = fieldCode("weekday");
  const minimumError = badMinimum ? t("errors.invalid_amount") : fieldCode("minimumCents") ? t("payouts.schedule.minimumAboveFee", { fee: formatMoney(feeCents, i18n.language) }) : undefined;
  return (
    <RoleLock needs="payouts:write" edited={edited}>
    <form className="form" onSubmit={submit} noValidate data-testid="schedule-form">
      {save.error && !save.error.fields?.length ? <ErrorAlert code={save.error.code} /> : null}
      {saved ? <Alert tone="success">{t("payouts.schedule.saved")}</Alert> : null}
      <fieldset className="form-fieldset" disabled={save.busy}>
        <SelectField
          label={t("payouts.schedule.interval")}
          value={interval}
          onChange={(e) => setInterval(e.target.value as PayoutInterval)}
          options={INTERVALS.map((value) => ({ value, label: t(`payouts.schedule.intervals.${value}`) }))}
          data-testid="schedule-interval"
        />
        {interval === "weekly" ? (
          <SelectField
            label={t("payouts.schedule.weekday")}
            value={String(weekday)}
            onChange={(e) => setWeekday(Number(e.target.value))}
            options={WEEKDAYS.map((value) => ({ value, label: t(`payouts.schedule.weekdays.${value}`) }))}
            error={weekdayCode ? t(`errors.${weekdayCode}`) : undefined}
            data-testid="schedule-weekday"
          />
        ) : null}
        {interval === "monthly" ? (
          <SelectField
            label={t("payouts.schedule.day")}
            value={String(day)}
            onChange={(e) => setDay(Number(e.target.value))}
            options={Array.from({ length: 28 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }))}
            data-testid="schedule-day"
          />
        ) : null}
        {interval === "monthly" ? <p className="field-hint">{t("payouts.schedule.dayHint")}</p> : null}
        {interval !== "off" ? (
          <TextField
            label={t("payouts.schedule.minimum")}
            value={minimum}
            onChange={(e) => setMinimum(e.target.value)}
            inputMode="decimal"
            hint={t("payouts.schedule.minimumHint")}
            error={minimumError}
            data-testid="schedule-minimum"
          />
        ) : null}
      </fieldset>
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={save.busy} needs="payouts:write" data-testid="save-schedule">
          {t("payouts.schedule.save")}
        </Button>
      </div>
    </form>
    </RoleLock>
  );
}
