import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { Badge } from "../../components/Badge";
import { formatDate, formatPhone } from "../../components/format";
import { customerAtom } from "../../live/cache";
import type { CustomerStatus } from "../../protocol/wire";

export function CustomerRow({ id, status }: { id: string; status: CustomerStatus }) {
  const { t, i18n } = useTranslation();
  const customer = useAtomValue(customerAtom(id));
  // A record archived or restored since the page loaded leaves a list it no longer matches.
  if (!customer || (status === "active" && customer.archived) || (status === "archived" && !customer.archived)) return null;
  const empty = t("customers.emptyValue");
  return (
    <tr data-testid="customer-row" data-customer-id={id}>
      <td>
        <Link to={`/customers/${id}`} className="table-link">
          {customer.name || empty}
        </Link>
      </td>
      <td className="cell-muted">{customer.email || empty}</td>
      <td className="cell-muted hide-sm">{customer.cellphone ? formatPhone(customer.cellphone) : empty}</td>
      <td className={customer.reference ? "cell-mono hide-sm" : "cell-muted hide-sm"}>{customer.reference || empty}</td>
      <td>
        {customer.archived ? <Badge tone="zinc">{t("customers.archived")}</Badge> : <Badge tone="green">{t("customers.active")}</Badge>}
      </td>
      <td className="cell-muted hide-md">{formatDate(customer.createdAt, i18n.language)}</td>
    </tr>
  );
}
