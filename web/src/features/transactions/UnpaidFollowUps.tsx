import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { formatBusinessDate, formatDateTime } from "../../components/format";
import { Link } from "../../components/placeLinks";
import { useMay } from "../../components/useMay";
import { UNPAID_ACTION_NEEDS } from "../../live/access";
import type { Transaction, UnpaidFollowUp } from "../../protocol/wire";
import { UnpaidActionDialog } from "./UnpaidActionDialog";
import { offeredActions, type UnpaidActionKind } from "./unpaidActions";

/** On an unpaid's page: the ways to follow it up, and what the team has done so far (live). */
export function UnpaidFollowUps({ transaction }: { transaction: Transaction }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState<UnpaidActionKind | null>(null);
  const actions = offeredActions(transaction);
  if (actions.length === 0) return null;
  return (
    <div className="card unpaid-follow-ups" data-testid="unpaid-follow-ups">
      <h2 className="card-title">{t("transactions.followUp.title")}</h2>
      <div className="follow-up-actions">
        {actions.map((action) => (
          <Button key={action} onClick={() => setAsking(action)} needs={UNPAID_ACTION_NEEDS[action]} data-testid={`follow-up-${action}`}>
            {t(`transactions.followUp.actions.${action}.button`)}
          </Button>
        ))}
      </div>
      <h3 className="follow-up-done-title">{t("transactions.followUp.done")}</h3>
      {(transaction.followUps ?? []).length === 0 ? (
        <p className="cell-muted" data-testid="follow-ups-none">
          {t("transactions.followUp.none")}
        </p>
      ) : (
        <ol className="follow-up-list" data-testid="follow-up-list">
          {[...(transaction.followUps ?? [])].reverse().map((done, index) => (
            <FollowUpLine key={`${done.doneAt}-${index}`} done={done} />
          ))}
        </ol>
      )}
      {asking ? <UnpaidActionDialog transaction={transaction} action={asking} onClose={() => setAsking(null)} /> : null}
    </div>
  );
}

function FollowUpLine({ done }: { done: UnpaidFollowUp }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const words = { date: done.date ? formatBusinessDate(done.date, language) : "", email: done.email ?? "" };
  return (
    <li className="follow-up-line" data-testid="follow-up-line" data-kind={done.kind}>
      <span>{t(`transactions.followUp.kind.${done.kind}`, words)}</span>
      {done.payPageId ? (
        <Link to="/payments/pages" className="table-link" data-testid="follow-up-pay-page">
          {t("transactions.followUp.openPayPage")}
        </Link>
      ) : null}
      {done.eMandateRequestId ? (
        <Link to="/payments/e-mandates" className="table-link" data-testid="follow-up-e-mandate">
          {t("transactions.followUp.openRequests")}
        </Link>
      ) : null}
      <span className="cell-sub">{formatDateTime(done.doneAt, language)}</span>
    </li>
  );
}

/** In a list of transactions: an unpaid row's follow-ups, in a menu beside its status. */
export function UnpaidRowMenu({ transaction }: { transaction: Transaction }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState<UnpaidActionKind | null>(null);
  const actions = offeredActions(transaction);
  if (actions.length === 0) return null;
  return (
    <>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger className="btn btn-secondary follow-up-trigger" data-testid="follow-up-menu">
          {t("transactions.followUp.menu")}
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          {/* The chosen follow-up's dialog takes the focus: the menu must not hand it back to its trigger, which would close the dialog at once. */}
          <DropdownMenu.Content className="menu" align="end" sideOffset={6} onCloseAutoFocus={(event) => event.preventDefault()}>
            {actions.map((action) => (
              <RowMenuItem key={action} action={action} onSelect={() => setAsking(action)} />
            ))}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {asking ? <UnpaidActionDialog transaction={transaction} action={asking} onClose={() => setAsking(null)} /> : null}
    </>
  );
}

function RowMenuItem({ action, onSelect }: { action: UnpaidActionKind; onSelect: () => void }) {
  const { t } = useTranslation();
  const may = useMay(UNPAID_ACTION_NEEDS[action]);
  if (!may.allowed && may.unseen) return null;
  return (
    <DropdownMenu.Item className="menu-item" disabled={!may.allowed} title={may.reason} onSelect={onSelect} data-testid={`follow-up-item-${action}`}>
      {t(`transactions.followUp.actions.${action}.button`)}
    </DropdownMenu.Item>
  );
}
