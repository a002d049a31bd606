import { useTranslation } from "react-i18next";
import type { MandateStatus, PaymentStatus } from "../protocol/wire";
import { Badge, type BadgeTone } from "./Badge";
import "./collectionBadges.css";

// Collecting: green; waiting on someone: blue or amber; refused or ended by a fault: red; over: grey.
const PAYMENT_TONES: Record<PaymentStatus, BadgeTone> = {
  pending: "blue",
  running: "green",
  paused: "amber",
  stopped: "red",
  cancelled: "zinc",
  completed: "zinc",
};

const MANDATE_TONES: Record<MandateStatus, BadgeTone> = {
  draft: "zinc",
  pending_authentication: "blue",
  active: "green",
  rejected: "red",
  no_reply: "amber",
  suspended: "amber",
  cancelled: "zinc",
  disabled: "red",
  completed: "zinc",
};

export function PaymentStatusBadge({ status }: { status: PaymentStatus }) {
  const { t } = useTranslation();
  return (
    <span data-testid="payment-status" data-status={status}>
      <Badge tone={PAYMENT_TONES[status]}>{t(`collections.paymentStatus.${status}`)}</Badge>
    </span>
  );
}

export function MandateStatusBadge({ status, archived = false }: { status: MandateStatus; archived?: boolean }) {
  const { t } = useTranslation();
  return (
    <span data-testid="mandate-status" data-status={status} className="badge-pair">
      <Badge tone={MANDATE_TONES[status]}>{t(`collections.mandateStatus.${status}`)}</Badge>
      {archived ? <Badge tone="zinc">{t("collections.archived")}</Badge> : null}
    </span>
  );
}

/** Marks records of the merchant's test data, which no real bank ever sees. */
export function TestDataMarker() {
  const { t } = useTranslation();
  return (
    <span className="test-data-marker" data-testid="test-data-marker">
      <Badge tone="amber">{t("collections.filters.testData")}</Badge>
    </span>
  );
}
