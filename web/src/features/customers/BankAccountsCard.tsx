import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { Spinner } from "../../components/Spinner";
import type { BankAccount, Customer } from "../../protocol/wire";
import { AddBankAccountDialog } from "./AddBankAccountDialog";
import { bankName, maskAccountNumber } from "../../components/banks";
import { RemoveBankAccountDialog } from "./RemoveBankAccountDialog";
import { useBankAccounts } from "../../live/useBankAccounts";
import type { BankAccountAction } from "./CustomerDetailPage";

/** The accounts a customer can be debited from; follows teammates' changes live. */
export function BankAccountsCard({ customer, action }: { customer: Customer; action?: BankAccountAction }) {
  const { t } = useTranslation();
  const view = useBankAccounts(customer.id);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<BankAccount | null>(null);
  const accounts = view.state === "ready" ? view.accounts : [];

  return (
    <section className="card bank-accounts" data-testid="bank-accounts" aria-label={t("bankAccounts.title")}>
      <div className="card-header">
        <h2 className="card-title">{t("bankAccounts.title")}</h2>
        <div className="card-actions">
          {action && accounts.length > 0 ? action({ customerId: customer.id, accounts }) : null}
          {/* A customer's accounts are the customer's: a role that only reads customers only reads them. */}
          <Button className="btn-sm" onClick={() => setAdding(true)} needs="customers:write" data-testid="add-bank-account">
            {t("bankAccounts.add")}
          </Button>
        </div>
      </div>

      {view.state === "loading" ? (
        <div className="card-placeholder">
          <Spinner label={t("app.loading")} />
        </div>
      ) : null}
      {view.state === "error" ? <Alert>{t(`errors.${view.code}`)}</Alert> : null}
      {view.state === "ready" && view.accounts.length === 0 ? (
        <p className="card-empty" data-testid="bank-accounts-empty">
          {t("bankAccounts.empty")}
        </p>
      ) : null}
      {view.state === "ready" && view.accounts.length > 0 ? (
        <div className={view.refreshing ? "table-scroll is-stale" : "table-scroll"} aria-busy={view.refreshing}>
          <table className="table" data-testid="bank-account-table">
            <thead>
              <tr>
                <th scope="col">{t("bankAccounts.fields.bank")}</th>
                <th scope="col">{t("bankAccounts.fields.accountType")}</th>
                <th scope="col">{t("bankAccounts.fields.holderName")}</th>
                <th scope="col">{t("bankAccounts.fields.accountNumber")}</th>
                <th scope="col" className="hide-sm">
                  {t("bankAccounts.fields.branchCode")}
                </th>
                <th scope="col">
                  <span className="sr-only-text">{t("bankAccounts.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {view.accounts.map((account) => (
                <tr key={account.id} data-testid="bank-account-row" data-bank-account-id={account.id}>
                  <td className="cell-strong">{bankName(account.bank)}</td>
                  <td className="cell-muted">{t(`bankAccounts.types.${account.accountType}`)}</td>
                  <td>{account.holderName}</td>
                  <td className="cell-mono" data-testid="bank-account-number">
                    {maskAccountNumber(account.accountNumber)}
                  </td>
                  <td className="cell-mono hide-sm">{account.branchCode}</td>
                  <td className="cell-actions">
                    <Button
                      variant="ghost"
                      className="btn-sm"
                      onClick={() => setRemoving(account)}
                      aria-label={t("bankAccounts.removeLabel", { bank: bankName(account.bank), number: maskAccountNumber(account.accountNumber) })}
                      needs="customers:write"
                      whenRefused="hide"
                      data-testid="remove-bank-account"
                    >
                      {t("bankAccounts.remove")}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <AddBankAccountDialog customer={customer} open={adding} onOpenChange={setAdding} />
      <RemoveBankAccountDialog account={removing} onClose={() => setRemoving(null)} />
    </section>
  );
}
