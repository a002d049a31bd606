import type { ReactNode } from "react";

export type AlertTone = "error" | "info" | "success" | "warning";

export function Alert({ children, tone = "error", testId }: { children: ReactNode; tone?: AlertTone; testId?: string }) {
  return (
    <div className={`alert alert-${tone}`} role={tone === "error" ? "alert" : "status"} data-testid={testId}>
      {children}
    </div>
  );
}
