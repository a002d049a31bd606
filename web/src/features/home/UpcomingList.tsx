import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { formatBusinessDate, formatMoney } from "../../components/format";
import { paymentAtom } from "../../live/cache";
import type { UpcomingCollection } from "../../protocol/wire";

// The payment's page: once-off or recurring when this tab knows the payment, recurring
// otherwise (the schedule behind most upcoming debits).
function PaymentLink({ collection }: { collection: UpcomingCollection }) {
  const payment = useAtomValue(paymentAtom(collection.paymentId));
  const base = payment?.kind === "once" ? "/payments/one-time" : "/payments/recurring";
  return (
    <Link to={`${base}/${collection.paymentId}`} className="table-link">
      {collection.customerName}
    </Link>
  );
}

/** The soonest scheduled debits, and how many more follow (with the way to them). */
export function UpcomingList({ upcoming, more }: { upcoming: UpcomingCollection[]; more: number }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="card home-panel" data-testid="upcoming">
      <h2 className="card-title">{t("home.upcoming.title")}</h2>
      {upcoming.length === 0 ? (
        <p className="home-empty">{t("home.upcoming.empty")}</p>
      ) : (
        <table className="table table-compact">
          <thead>
            <tr>
              <th scope="col">{t("home.upcoming.date")}</th>
              <th scope="col">{t("home.upcoming.customer")}</th>
              <th scope="col" className="upcoming-method">{t("home.upcoming.method")}</th>
              <th scope="col" className="cell-amount">{t("home.upcoming.amount")}</th>
            </tr>
          </thead>
          <tbody>
            {upcoming.map((collection) => (
              <tr key={`${collection.paymentId}-${collection.actionDate}-${collection.representation}`} data-testid="upcoming-row">
                <td className="cell-nowrap">{formatBusinessDate(collection.actionDate, i18n.language)}</td>
                <td>
                  <PaymentLink collection={collection} />
                  {collection.representation ? (
                    <span className="cell-muted" data-testid="upcoming-representation">
                      {" · "}
                      {t("home.upcoming.representation")}
                    </span>
                  ) : null}
                </td>
                <td className="cell-muted upcoming-method">{t(`collections.method.${collection.method}`)}</td>
                <td className="cell-amount">{formatMoney(collection.amountCents, i18n.language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {more > 0 ? (
        <p className="home-more" data-testid="upcoming-more">
          <Link to="/payments/recurring?status=running" className="table-link">
            {t("home.upcoming.more", { count: more })}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
