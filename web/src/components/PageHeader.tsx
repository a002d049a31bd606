import type { ReactNode } from "react";
import { OnThisPage } from "../app/shell/OnThisPage";

export function PageHeader({ title, subtitle, actions }: { title: string; subtitle?: string; actions?: ReactNode }) {
  return (
    <div className="page-header">
      <div>
        <h1 className="page-title">{title}</h1>
        {subtitle ? <p className="page-subtitle">{subtitle}</p> : null}
      </div>
      <div className="page-actions">
        <OnThisPage />
        {actions}
      </div>
    </div>
  );
}
