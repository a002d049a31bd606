import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { bankName } from "../../components/banks";
import { MandateStatusBadge } from "../../components/CollectionBadges";
import { formatDate, formatMoney } from "../../components/format";
import { mandateAtom } from "../../live/cache";

export function MandateRow({ id, archived }: { id: string; archived: boolean }) {
  const { t, i18n } = useTranslation();
  const mandate = useAtomValue(mandateAtom(id));
  // A mandate archived or restored since the page loaded leaves a list it no longer matches.
  if (!mandate || mandate.archived !== archived) return null;
  return (
    <tr data-testid="mandate-row" data-mandate-id={id}>
      <td>
        <Link to={`/mandates/${id}`} className="table-link">
          {mandate.customerName}
        </Link>
        <div className="cell-sub">{mandate.customerEmail}</div>
      </td>
      <td className="cell-muted hide-sm">{t(`collections.method.${mandate.method}`)}</td>
      <td className="cell-mono hide-sm">{mandate.contractReference || "—"}</td>
      <td className="cell-muted hide-md">{`${bankName(mandate.bank)} •••• ${mandate.accountLastDigits}`}</td>
      <td className="cell-amount">{formatMoney(mandate.amountCents, i18n.language)}</td>
      <td>
        <MandateStatusBadge status={mandate.status} archived={mandate.archived} />
      </td>
      <td className="cell-muted hide-md">{formatDate(mandate.createdAt, i18n.language)}</td>
    </tr>
  );
}

/** The header cells of a table of `MandateRow`s. */
export function MandateColumns() {
  const { t } = useTranslation();
  return (
    <>
      <th scope="col">{t("mandates.columns.customer")}</th>
      <th scope="col" className="hide-sm">{t("mandates.columns.method")}</th>
      <th scope="col" className="hide-sm">{t("mandates.columns.contractReference")}</th>
      <th scope="col" className="hide-md">{t("mandates.columns.bankAccount")}</th>
      <th scope="col" className="cell-amount">{t("mandates.columns.amount")}</th>
      <th scope="col">{t("mandates.columns.status")}</th>
      <th scope="col" className="hide-md">{t("mandates.columns.created")}</th>
    </>
  );
}
