import { useTranslation } from "react-i18next";
import { Badge, type BadgeTone } from "../../components/Badge";
import type { OrderStatus } from "../../protocol/wire";

const TONES: Record<OrderStatus, BadgeTone> = { pending: "blue", paid: "green", failed: "red", refunded: "zinc", cancelled: "zinc", abandoned: "amber" };

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useTranslation();
  return (
    <span data-testid="order-status" data-status={status}>
      <Badge tone={TONES[status]}>{t(`orders.status.${status}`)}</Badge>
    </span>
  );
}
