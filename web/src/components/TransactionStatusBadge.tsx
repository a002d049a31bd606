import { useTranslation } from "react-i18next";
import type { TransactionStatus } from "../protocol/wire";
import { Badge, type BadgeTone } from "./Badge";

// Money in: green; money lost or at risk: red; still with the bank: blue; nothing moved: grey.
const TONES: Record<TransactionStatus, BadgeTone> = {
  pending: "zinc",
  sent_to_bank: "blue",
  accepted_by_bank: "blue",
  in_tracking: "amber",
  rejected_by_bank: "red",
  paid: "green",
  unpaid: "red",
  disputed: "amber",
  reversed: "red",
  cancelled: "zinc",
};

export function TransactionStatusBadge({ status }: { status: TransactionStatus }) {
  const { t } = useTranslation();
  return (
    <span data-testid="transaction-status" data-status={status}>
      <Badge tone={TONES[status]}>{t(`collections.transactionStatus.${status}`)}</Badge>
    </span>
  );
}
