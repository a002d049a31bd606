import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useParams } from "react-router";
import { Link } from "../../components/placeLinks";
import { Badge } from "../../components/Badge";
import { Button } from "../../components/Button";
import { EmptyState } from "../../components/EmptyState";
import { formatDateTime, formatPhone } from "../../components/format";
import { PageHeader } from "../../components/PageHeader";
import { PageSpinner } from "../../components/Spinner";
import { RecordElsewhere } from "../../components/RecordElsewhere";
import { useLiveClient } from "../../live/context";
import type { BankAccount, Customer } from "../../protocol/wire";
import { ArchiveDialog } from "./ArchiveDialog";
import { BankAccountsCard } from "./BankAccountsCard";
import "./bankAccounts.css";
import { EditCustomerDialog } from "./EditCustomerDialog";
import { customerAtom } from "../../live/cache";
import { useRecord } from "../../live/useRecord";

/** What another area adds beside a customer's bank accounts (payouts: pay the customer). */
export type BankAccountAction = (props: { customerId: string; accounts: BankAccount[] }) => ReactNode;

type CustomerDetailPageProps = {
  bankAccountAction?: BankAccountAction;
  /** What another area offers in the page's header (payments: a new payment from this customer). */
  headerAction?: (customer: Customer) => ReactNode;
  /** The customer's records kept by other areas (mandates, payments, transactions), under the bank accounts. */
  related?: (customerId: string) => ReactNode;
};

export function CustomerDetailPage({ bankAccountAction, headerAction, related }: CustomerDetailPageProps) {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const view = useRecord(customerAtom(id), { t: "GetCustomer", customerId: id }, id);

  return (
    <section className="page" data-testid="customer-detail">
      <Link to="/customers" className="back-link">
        ← {t("customers.back")}
      </Link>
      {view.state === "loading" ? <PageSpinner label={t("app.loading")} /> : null}
      {view.state === "error" ? (
        <EmptyState
          title={view.code === "not_found" ? t("customers.notFound") : t(`errors.${view.code}`)}
          action={view.code === "not_found" ? <RecordElsewhere recordId={id} /> : undefined}
          testId="customer-missing"
        />
      ) : null}
      {view.state === "ready" ? <CustomerDetail customer={view.record} bankAccountAction={bankAccountAction} headerAction={headerAction} related={related} /> : null}
    </section>
  );
}

function CustomerDetail({ customer, bankAccountAction, headerAction, related }: CustomerDetailPageProps & { customer: Customer }) {
  const { t, i18n } = useTranslation();
  const client = useLiveClient();
  const { pathname } = useLocation();
  const [editing, setEditing] = useState(false);
  const [archiving, setArchiving] = useState(false);
  const [restoring, setRestoring] = useState(false);
  const empty = t("customers.emptyValue");

  async function restore() {
    setRestoring(true);
    try {
      await client.command({ t: "RestoreCustomer", customerId: customer.id });
    } catch {
      // Shown by the global notice.
    } finally {
      setRestoring(false);
    }
  }

  const actions = (
    <>
      {headerAction?.(customer)}
      <Button onClick={() => setEditing(true)} needs="customers:write" data-testid="edit-customer">
        {t("customers.edit")}
      </Button>
      {customer.archived ? (
        <Button variant="primary" onClick={restore} busy={restoring} needs="customers:write" data-testid="restore-customer">
          {t("customers.restore")}
        </Button>
      ) : (
        <Button variant="danger" onClick={() => setArchiving(true)} needs="customers:write" data-testid="archive-customer">
          {t("customers.archive")}
        </Button>
      )}
    </>
  );

  const rows: [string, string][][] = [
    [
      [t("customers.fields.email"), customer.email],
      [t("customers.fields.cellphone"), formatPhone(customer.cellphone)],
      [t("customers.fields.reference"), customer.reference],
    ],
    [
      [t("customers.fields.idType"), customer.idType ? t(`customers.idTypes.${customer.idType}`) : ""],
      [t("customers.fields.idNumber"), customer.idNumber],
    ],
    [
      [t("customers.fields.addressLine1"), customer.addressLine1],
      [t("customers.fields.addressLine2"), customer.addressLine2],
      [t("customers.fields.city"), customer.city],
      [t("customers.fields.postalCode"), customer.postalCode],
    ],
    [
      [t("customers.createdAt"), formatDateTime(customer.createdAt, i18n.language)],
      [t("customers.updatedAt"), formatDateTime(customer.updatedAt, i18n.language)],
    ],
  ];
  const titles = [t("customers.sections.contact"), t("customers.sections.identity"), t("customers.sections.address"), t("customers.sections.record")];

  return (
    <>
      <PageHeader title={customer.name || empty} subtitle={customer.email} actions={actions} needs="customers:write" />
      <div className="detail-meta">
        <span data-testid="customer-status">
          {customer.archived ? <Badge tone="zinc">{t("customers.archived")}</Badge> : <Badge tone="green">{t("customers.active")}</Badge>}
        </span>
        <code className="cell-mono">{customer.id}</code>
      </div>
      <div className="detail-grid">
        {rows.map((section, index) => (
          <div className="card" key={titles[index]}>
            <h2 className="card-title">{titles[index]}</h2>
            <dl className="detail-list">
              {section.map(([label, value]) => (
                <div key={label} className="detail-row">
                  <dt>{label}</dt>
                  <dd>{value || empty}</dd>
                </div>
              ))}
            </dl>
          </div>
        ))}
      </div>
      <BankAccountsCard customer={customer} action={bankAccountAction} />
      {related?.(customer.id)}
      <EditCustomerDialog customer={customer} path={pathname} open={editing} onOpenChange={setEditing} />
      <ArchiveDialog customer={customer} open={archiving} onOpenChange={setArchiving} />
    </>
  );
}
