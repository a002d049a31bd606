import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { MandateStatusBadge } from "../../components/CollectionBadges";
import { formatBusinessDate } from "../../components/format";
import { mandateAtom } from "../../live/cache";
import { MandateActionButtons } from "./MandateActions";

/** One request to a payer to approve a mandate with their bank, and a way to ask again. */
export function EMandateRow({ id, archived }: { id: string; archived: boolean }) {
  const { t, i18n } = useTranslation();
  const mandate = useAtomValue(mandateAtom(id));
  if (!mandate || mandate.archived !== archived) return null;
  return (
    <tr data-testid="e-mandate-row" data-mandate-id={id}>
      <td>
        <Link to={`/mandates/${id}`} className="table-link">
          {mandate.customerName}
        </Link>
        <div className="cell-sub">{mandate.customerEmail}</div>
      </td>
      <td className="cell-mono hide-sm">{mandate.contractReference || "—"}</td>
      <td>
        <MandateStatusBadge status={mandate.status} archived={mandate.archived} />
      </td>
      <td className="cell-number" data-testid="authentication-requests">
        {mandate.authenticationRequests}
      </td>
      <td className="cell-muted hide-sm">
        {mandate.status === "pending_authentication" && mandate.authenticationDue ? formatBusinessDate(mandate.authenticationDue, i18n.language) : "—"}
      </td>
      <td className="cell-muted hide-md">{mandate.approvalWindow ? t(`collections.approvalWindowShort.${mandate.approvalWindow}`) : "—"}</td>
      <td className="cell-actions">
        <MandateActionButtons mandate={mandate} only={["resend_authentication"]} />
      </td>
    </tr>
  );
}
