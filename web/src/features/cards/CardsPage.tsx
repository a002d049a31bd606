import { useAtomValue } from "jotai";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { EmptyState } from "../../components/EmptyState";
import { PageHeader } from "../../components/PageHeader";
import { PagedTable } from "../../components/PagedTable";
import { todayInSouthAfrica } from "../../components/format";
import { businessDateAtom, cardAtom, cardUpsertsAtom } from "../../live/cache";
import { useCommand } from "../../live/useCommand";
import { usePagedList } from "../../live/usePagedList";
import type { Card } from "../../protocol/wire";
import { CardRow } from "./CardRow";
import "./cards.css";
import { ChargeDialog } from "./ChargeDialog";
import { ScheduleDialog } from "./ScheduleDialog";
import { formatExpiry } from "./cardView";

const PAGE_SIZE = 50;

export function CardsPage() {
  const { t } = useTranslation();
  const today = useAtomValue(businessDateAtom) ?? todayInSouthAfrica();
  const [charging, setCharging] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Card | null>(null);
  const [scheduling, setScheduling] = useState<string | null>(null);
  const [stopping, setStopping] = useState<Card | null>(null);
  const remove = useCommand();
  const stop = useCommand();
  const list = usePagedList({
    kind: "card",
    upserts: cardUpsertsAtom,
    query: (cursor) => ({ t: "ListCards", cursor, limit: PAGE_SIZE }),
    key: "cards",
  });

  async function confirmRemove() {
    if (!removing) return;
    const reply = await remove.run({ t: "RemoveCard", cardId: removing.id });
    if (reply) setRemoving(null);
  }

  async function confirmStop() {
    if (!stopping) return;
    const reply = await stop.run({ t: "StopCardSchedule", cardId: stopping.id });
    if (reply) setStopping(null);
  }

  return (
    <section className="page" data-testid="cards-page">
      <PageHeader title={t("cards.title")} subtitle={t("cards.subtitle")} needs="payments:write" />
      <PagedTable
        list={list}
        testId="card-table"
        empty={
          <EmptyState testId="cards-empty" title={t("cards.empty")} body={t("cards.emptyHint")} />
        }
        columns={
          <>
            <th scope="col">{t("cards.columns.card")}</th>
            <th scope="col">{t("cards.columns.expiry")}</th>
            <th scope="col">{t("cards.columns.customer")}</th>
            <th scope="col">{t("cards.columns.schedule")}</th>
            <th scope="col" className="hide-sm">{t("cards.columns.added")}</th>
            <th scope="col">
              <span className="sr-only-text">{t("cards.columns.actions")}</span>
            </th>
          </>
        }
        row={(id) => (
          <CardRow
            key={id}
            id={id}
            today={today}
            onCharge={(card) => setCharging(card.id)}
            onSchedule={(card) => setScheduling(card.id)}
            onStop={setStopping}
            onRemove={setRemoving}
          />
        )}
        loadMoreLabel={t("cards.loadMore")}
        loadingMoreLabel={t("cards.loadingMore")}
      />
      {charging ? <ChargingCard id={charging} onClose={() => setCharging(null)} /> : null}
      {scheduling ? <SchedulingCard id={scheduling} today={today} onClose={() => setScheduling(null)} /> : null}
      <ConfirmDialog
        open={stopping !== null}
        onOpenChange={(open) => {
          if (!open) {
            setStopping(null);
            stop.clearError();
          }
        }}
        title={t("cards.stop.title")}
        body={stopping ? t("cards.stop.body", { brand: t(`cards.brand.${stopping.brand}`), last: stopping.lastFour, name: stopping.customerName }) : ""}
        confirmLabel={t("cards.actions.stop")}
        onConfirm={() => void confirmStop()}
        busy={stop.busy}
        error={stop.error}
        variant="danger"
        testId="card-stop-dialog"
        needs="payments:write"
      />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) {
            setRemoving(null);
            remove.clearError();
          }
        }}
        title={t("cards.remove.title")}
        body={removing ? t("cards.remove.body", { brand: t(`cards.brand.${removing.brand}`), last: removing.lastFour, expiry: formatExpiry(removing), name: removing.customerName }) : ""}
        confirmLabel={t("cards.actions.remove")}
        onConfirm={() => void confirmRemove()}
        busy={remove.busy}
        error={remove.error}
        variant="danger"
        testId="card-remove-dialog"
        needs="customers:write"
      />
    </section>
  );
}

function SchedulingCard({ id, today, onClose }: { id: string; today: string; onClose: () => void }) {
  const card = useAtomValue(cardAtom(id));
  return card ? <ScheduleDialog card={card} today={today} onClose={onClose} /> : null;
}

// The dialog follows the card: removed by a teammate meanwhile, it closes.
function ChargingCard({ id, onClose }: { id: string; onClose: () => void }) {
  const card = useAtomValue(cardAtom(id));
  return card ? <ChargeDialog card={card} onClose={onClose} /> : null;
}
