import type { ReactNode } from "react";
import { OnThisPage } from "../app/shell/OnThisPage";
import type { Need } from "../live/access";
import { useMay } from "./useMay";

type PageHeaderProps = {
  title: string;
  subtitle?: string;
  actions?: ReactNode;
  /** What the screen's actions need: a role without it is told so under the title, once for all of them. */
  needs?: Need;
};

export function PageHeader({ title, subtitle, actions, needs }: PageHeaderProps) {
  const may = useMay(needs);
  return (
    <div className="page-header">
      <div>
        <h1 className="page-title">{title}</h1>
        {subtitle ? <p className="page-subtitle">{subtitle}</p> : null}
        {may.allowed ? null : (
          <p className="role-note" data-testid="role-note">
            {may.reason}
          </p>
        )}
      </div>
      <div className="page-actions">
        <OnThisPage />
        {actions}
      </div>
    </div>
  );
}
