import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Badge } from "../../components/Badge";
import { Button } from "../../components/Button";
import { formatDate } from "../../components/format";
import { cardAtom } from "../../live/cache";
import type { Card } from "../../protocol/wire";
import { BrandMark } from "./BrandMark";
import { formatExpiry, isExpired } from "./cardView";

type CardRowProps = { id: string; today: string; onCharge: (card: Card) => void; onRemove: (card: Card) => void };

export function CardRow({ id, today, onCharge, onRemove }: CardRowProps) {
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
      <td className="cell-muted hide-sm">{formatDate(card.createdAt, i18n.language)}</td>
      <td>
        <div className="row-actions">
          <Button variant="ghost" disabled={expired} title={expired ? t("errors.card_expired") : undefined} onClick={() => onCharge(card)} data-testid="card-charge">
            {t("cards.actions.charge")}
          </Button>
          <Button variant="ghost" onClick={() => onRemove(card)} data-testid="card-remove">
            {t("cards.actions.remove")}
          </Button>
        </div>
      </td>
    </tr>
  );
}
