import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { Badge, type BadgeTone } from "../../components/Badge";
import { Button } from "../../components/Button";
import { formatBusinessDate, formatMoney } from "../../components/format";
import { payPageAtom } from "../../live/cache";
import type { PayPage } from "../../protocol/wire";
import { pageState, type PageState } from "./pageView";
import { payPageLogoUrl, payPageUrl } from "./share";

const TONES: Record<PageState, BadgeTone> = { active: "green", inactive: "zinc", expired: "amber", used_up: "amber" };

type PayPageRowProps = {
  id: string;
  today: string;
  busy: boolean;
  onShare: (page: PayPage) => void;
  onEdit: (page: PayPage) => void;
  onSetActive: (page: PayPage, active: boolean) => void;
};

export function PayPageRow({ id, today, busy, onShare, onEdit, onSetActive }: PayPageRowProps) {
  const { t, i18n } = useTranslation();
  const page = useAtomValue(payPageAtom(id));
  if (!page) return null;
  const language = i18n.language;
  const state = pageState(page, today);
  const amount =
    page.amountMode === "fixed" && page.amountCents !== undefined
      ? formatMoney(page.amountCents, language)
      : t("payPages.amountRange", { min: formatMoney(page.minCents ?? 0, language), max: formatMoney(page.maxCents ?? 0, language) });
  return (
    <tr data-testid="pay-page-row" data-page-id={id} data-active={page.active}>
      <td className="pay-page-main">
        <div className="page-cell">
          <span className="page-mark" style={{ background: page.colour }} aria-hidden="true">
            {page.logoVersion !== undefined ? <img src={payPageLogoUrl(page.id, page.logoVersion)} alt="" /> : null}
          </span>
          <span>
            <span className="page-title-text" data-testid="pay-page-title">
              {page.title}
            </span>
            <span className="cell-sub cell-mono page-link" data-testid="pay-page-link">
              {payPageUrl(window.location.origin, page.id)}
            </span>
          </span>
        </div>
      </td>
      <td className="cell-amount pay-page-amount" data-testid="pay-page-amount">
        {amount}
        <span className="cell-sub">{page.kind === "recurring" && page.interval ? t(`payPages.interval.${page.interval}`) : t("payPages.kind.once")}</span>
      </td>
      <td className="cell-muted hide-md">{page.methods.map((method) => t(`collections.method.${method}`)).join(", ")}</td>
      <td className="hide-sm cell-nowrap">
        {page.maxUses !== undefined ? t("payPages.usesOf", { uses: page.uses, max: page.maxUses }) : String(page.uses)}
        {page.expiresOn ? <span className="cell-sub">{t("payPages.expiresOn", { date: formatBusinessDate(page.expiresOn, language) })}</span> : null}
      </td>
      <td className="pay-page-status">
        <span data-testid="pay-page-state" data-state={state}>
          <Badge tone={TONES[state]}>{t(`payPages.state.${state}`)}</Badge>
        </span>
      </td>
      <td className="pay-page-actions">
        <div className="row-actions">
          <Button variant="ghost" onClick={() => onShare(page)} data-testid="pay-page-share">
            {t("payPages.actions.share")}
          </Button>
          <Button variant="ghost" onClick={() => onEdit(page)} needs="pay_pages:write" whenRefused="hide" data-testid="pay-page-edit">
            {t("payPages.actions.edit")}
          </Button>
          <Button variant="ghost" busy={busy} onClick={() => onSetActive(page, !page.active)} needs="pay_pages:write" whenRefused="hide" data-testid="pay-page-toggle">
            {page.active ? t("payPages.actions.deactivate") : t("payPages.actions.activate")}
          </Button>
        </div>
      </td>
    </tr>
  );
}
