import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { Badge } from "../../components/Badge";
import { Button } from "../../components/Button";
import { formatBusinessDate, formatDate, formatMoney } from "../../components/format";
import { cardAtom } from "../../live/cache";
import type { Card } from "../../protocol/wire";
import { BrandMark } from "./BrandMark";
import { formatExpiry, isExpired, scheduleState } from "./cardView";

type CardRowProps = {
  id: string;
  today: string;
  onCharge: (card: Card) => void;
  onSchedule: (card: Card) => void;
  onStop: (card: Card) => void;
  onRemove: (card: Card) => void;
};

/** The card's recurring charge: amount and interval, and where it stands (live). */
function ScheduleCell({ card }: { card: Card }) {
  const { t, i18n } = useTranslation();
  const schedule = card.schedule;
  if (!schedule) return <span className="cell-muted">{t("cards.schedule.none")}</span>;
  const state = scheduleState(schedule);
  const date = (iso: string) => formatBusinessDate(iso, i18n.language);
  return (
    <span data-testid="card-schedule" data-status={schedule.status}>
      <span className="card-number">
        {formatMoney(schedule.amountCents, i18n.language)} {t(`cards.schedule.intervals.${schedule.interval}`)}
      </span>
      <span className="cell-sub">
        <Badge tone={state.tone}>{t(state.key, { tries: schedule.failedTries })}</Badge>{" "}
        {schedule.status === "active"
          ? schedule.retryDate
            ? t("cards.schedule.retryOn", { date: date(schedule.retryDate), attempt: schedule.failedTries + 1 })
            : t("cards.schedule.nextOn", { date: date(schedule.nextChargeDate) })
          : null}
      </span>
    </span>
  );
}

export function CardRow({ id, today, onCharge, onSchedule, onStop, onRemove }: CardRowProps) {
  const { t, i18n } = useTranslation();
  const card = useAtomValue(cardAtom(id));
  if (!card) return null;
  const expired = isExpired(card, today);
  return (
    <tr data-testid="card-row" data-card-id={id}>
      <td>
        <div className="card-cell">
          <BrandMark brand={card.brand} />
          <span>
            <span className="cell-mono card-number">•••• {card.lastFour}</span>
            <span className="cell-sub">{t(`cards.brand.${card.brand}`)}</span>
          </span>
        </div>
      </td>
      <td className="cell-nowrap" data-testid="card-expiry" data-expired={expired}>
        <span className="cell-mono">{formatExpiry(card)}</span> {expired ? <Badge tone="red">{t("cards.expired")}</Badge> : null}
      </td>
      <td>
        <Link to={`/customers/${encodeURIComponent(card.customerId)}`} className="table-link" data-testid="card-customer">
          {card.customerName}
        </Link>
      </td>
      <td>
        <ScheduleCell card={card} />
      </td>
      <td className="cell-muted hide-sm">{formatDate(card.createdAt, i18n.language)}</td>
      <td>
        <div className="row-actions">
          <Button variant="ghost" disabled={expired} title={expired ? t("errors.card_expired") : undefined} onClick={() => onCharge(card)} needs="payments:write" whenRefused="hide" data-testid="card-charge">
            {t("cards.actions.charge")}
          </Button>
          <Button variant="ghost" disabled={expired} onClick={() => onSchedule(card)} needs="payments:write" whenRefused="hide" data-testid="card-schedule-edit">
            {t("cards.actions.schedule")}
          </Button>
          {card.schedule && card.schedule.status !== "stopped" ? (
            <Button variant="ghost" onClick={() => onStop(card)} needs="payments:write" whenRefused="hide" data-testid="card-schedule-stop">
              {t("cards.actions.stop")}
            </Button>
          ) : null}
          <Button variant="ghost" onClick={() => onRemove(card)} needs="customers:write" whenRefused="hide" data-testid="card-remove">
            {t("cards.actions.remove")}
          </Button>
        </div>
      </td>
    </tr>
  );
}
