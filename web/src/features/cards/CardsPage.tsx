import { useAtomValue } from "jotai";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { EmptyState } from "../../components/EmptyState";
import { PageHeader } from "../../components/PageHeader";
import { todayInSouthAfrica } from "../../components/format";
import { Spinner } from "../../components/Spinner";
import { businessDateAtom, cardAtom, cardUpsertsAtom } from "../../live/cache";
import { useCommand } from "../../live/useCommand";
import { usePagedList } from "../../live/usePagedList";
import type { Card } from "../../protocol/wire";
import { CardRow } from "./CardRow";
import "./cards.css";
import { ChargeDialog } from "./ChargeDialog";
import { formatExpiry } from "./cardView";

const PAGE_SIZE = 50;

export function CardsPage() {
  const { t } = useTranslation();
  const today = useAtomValue(businessDateAtom) ?? todayInSouthAfrica();
  const [charging, setCharging] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Card | null>(null);
  const remove = useCommand();
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

  return (
    <section className="page" data-testid="cards-page">
      <PageHeader title={t("cards.title")} subtitle={t("cards.subtitle")} />
      {list.error ? <Alert>{t(`errors.${list.error}`)}</Alert> : null}
      {list.loading && list.ids.length === 0 ? (
        <div className="table-placeholder">
          <Spinner label={t("app.loading")} />
        </div>
      ) : list.ids.length === 0 && !list.error ? (
        <EmptyState testId="cards-empty" title={t("cards.empty")} body={t("cards.emptyHint")} />
      ) : list.ids.length === 0 ? null : (
        <div className={list.loading ? "table-card is-stale" : "table-card"} aria-busy={list.loading}>
          <table className="table" data-testid="card-table">
            <thead>
              <tr>
                <th scope="col">{t("cards.columns.card")}</th>
                <th scope="col">{t("cards.columns.expiry")}</th>
                <th scope="col">{t("cards.columns.customer")}</th>
                <th scope="col" className="hide-sm">{t("cards.columns.added")}</th>
                <th scope="col">
                  <span className="sr-only-text">{t("cards.columns.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.ids.map((id) => (
                <CardRow key={id} id={id} today={today} onCharge={(card) => setCharging(card.id)} onRemove={setRemoving} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.hasMore ? (
        <div className="load-more">
          <Button onClick={list.loadMore} busy={list.loadingMore} data-testid="load-more">
            {list.loadingMore ? t("cards.loadingMore") : t("cards.loadMore")}
          </Button>
        </div>
      ) : null}
      {charging ? <ChargingCard id={charging} onClose={() => setCharging(null)} /> : null}
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
      />
    </section>
  );
}

// The dialog follows the card: removed by a teammate meanwhile, it closes.
function ChargingCard({ id, onClose }: { id: string; onClose: () => void }) {
  const card = useAtomValue(cardAtom(id));
  return card ? <ChargeDialog card={card} onClose={onClose} /> : null;
}
