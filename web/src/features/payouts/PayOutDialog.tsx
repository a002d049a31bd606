import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { TextField } from "../../components/Field";
import { formatMoney } from "../../components/format";
import { useCommand } from "../../live/useCommand";
import type { PayoutSettings } from "../../protocol/wire";
import { parseRand, useBalance } from "./usePayouts";
import { useErrorText } from "../../components/useMay";

/** A manual payout to the settlement account, up to the available balance. */
export function PayOutDialog({ settings, onClose }: { settings: PayoutSettings; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const balance = useBalance();
  const pay = useCommand();
  const errorText = useErrorText("payouts:write");
  const available = balance && "value" in balance ? balance.value.availableCents : 0;
  const [amount, setAmount] = useState("");
  const [bad, setBad] = useState(false);
  const cents = parseRand(amount);
  const fee = settings.feeCents;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBad(cents === null);
    if (cents === null) return;
    if (await pay.run({ t: "RequestPayout", amountCents: cents })) onClose();
  }

  const code = pay.error?.fields?.[0]?.code ?? pay.error?.code;
  const account = settings.account;
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? null : onClose())}
      title={t("payouts.payOut.title")}
      description={t("payouts.payOut.body", { available: formatMoney(available, i18n.language), fee: formatMoney(fee, i18n.language) })}
      closeLabel={t("common.close")}
      size="sm"
      testId="pay-out-dialog"
      needs="payouts:write"
    >
      <form className="form" onSubmit={submit} noValidate>
        <TextField
          label={t("payouts.payOut.amount")}
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          inputMode="decimal"
          autoComplete="off"
          error={bad ? t("errors.invalid_amount") : code ? errorText(code) : undefined}
          hint={cents !== null && cents > fee ? t("payouts.payOut.reaches", { net: formatMoney(cents - fee, i18n.language), last4: account?.accountLast4 ?? "" }) : undefined}
          data-testid="pay-out-amount"
        />
        <div className="form-actions">
          <Button onClick={() => setAmount((available / 100).toFixed(2))} disabled={available <= fee} data-testid="pay-out-all">
            {t("payouts.payOut.all")}
          </Button>
          <Button type="submit" variant="primary" busy={pay.busy} needs="payouts:write" data-testid="confirm-pay-out">
            {t("payouts.payOut.confirm")}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
