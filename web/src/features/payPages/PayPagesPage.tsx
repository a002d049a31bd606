import { useAtomValue } from "jotai";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { EmptyState } from "../../components/EmptyState";
import { PageHeader } from "../../components/PageHeader";
import { PagedTable } from "../../components/PagedTable";
import { todayInSouthAfrica } from "../../components/format";
import { businessDateAtom, payPageAtom, payPageUpsertsAtom } from "../../live/cache";
import { useLiveClient } from "../../live/context";
import { usePagedList } from "../../live/usePagedList";
import type { PayPage } from "../../protocol/wire";
import { PayPageDialog } from "./PayPageDialog";
import { PayPageRow } from "./PayPageRow";
import "./payPages.css";
import { ShareDialog } from "./ShareDialog";

const PAGE_SIZE = 50;

// Dialogs hold the id, not the record: a teammate's edit shows in an open share dialog too.
type Open = { t: "none" } | { t: "new" } | { t: "edit"; id: string } | { t: "share"; id: string };

export function PayPagesPage() {
  const { t } = useTranslation();
  const client = useLiveClient();
  const [open, setOpen] = useState<Open>({ t: "none" });
  const [toggling, setToggling] = useState<string | null>(null);
  const today = useAtomValue(businessDateAtom) ?? todayInSouthAfrica();
  const list = usePagedList({
    kind: "pay_page",
    upserts: payPageUpsertsAtom,
    query: (cursor) => ({ t: "ListPayPages", cursor, limit: PAGE_SIZE }),
    key: "pay-pages",
  });

  async function setActive(page: PayPage, active: boolean) {
    setToggling(page.id);
    try {
      await client.command({ t: "SetPayPageActive", pageId: page.id, active });
    } catch {
      // The global notice says why; the row shows the page as it still is.
    } finally {
      setToggling(null);
    }
  }

  const newButton = (
    <Button variant="primary" onClick={() => setOpen({ t: "new" })} needs="pay_pages:write" data-testid="new-pay-page">
      {t("payPages.new")}
    </Button>
  );

  return (
    <section className="page pay-pages" data-testid="pay-pages-page">
      <PageHeader title={t("payPages.title")} subtitle={t("payPages.subtitle")} actions={newButton} needs="pay_pages:write" />
      <PagedTable
        list={list}
        testId="pay-page-table"
        empty={
          <EmptyState testId="pay-pages-empty" title={t("payPages.empty")} body={t("payPages.emptyHint")} action={newButton} />
        }
        columns={
          <>
            <th scope="col">{t("payPages.columns.page")}</th>
            <th scope="col" className="cell-amount">{t("payPages.columns.amount")}</th>
            <th scope="col" className="hide-md">{t("payPages.columns.methods")}</th>
            <th scope="col" className="hide-sm">{t("payPages.columns.uses")}</th>
            <th scope="col">{t("payPages.columns.status")}</th>
            <th scope="col">
              <span className="sr-only-text">{t("payPages.columns.actions")}</span>
            </th>
          </>
        }
        row={(id) => (
          <PayPageRow
            key={id}
            id={id}
            today={today}
            busy={toggling === id}
            onShare={(page) => setOpen({ t: "share", id: page.id })}
            onEdit={(page) => setOpen({ t: "edit", id: page.id })}
            onSetActive={(page, active) => void setActive(page, active)}
          />
        )}
        loadMoreLabel={t("payPages.loadMore")}
        loadingMoreLabel={t("payPages.loadingMore")}
      />
      <PayPageDialog open={open.t === "new"} onOpenChange={(next) => setOpen(next ? { t: "new" } : { t: "none" })} />
      {open.t === "edit" || open.t === "share" ? <OpenPage open={open} onClose={() => setOpen({ t: "none" })} /> : null}
    </section>
  );
}

function OpenPage({ open, onClose }: { open: Extract<Open, { id: string }>; onClose: () => void }) {
  const page = useAtomValue(payPageAtom(open.id));
  if (!page) return null;
  const onOpenChange = (next: boolean) => {
    if (!next) onClose();
  };
  return open.t === "edit" ? (
    <PayPageDialog key={page.id} page={page} open onOpenChange={onOpenChange} />
  ) : (
    <ShareDialog page={page} open onOpenChange={onOpenChange} />
  );
}
