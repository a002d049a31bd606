import type { ReactNode } from "react";

export function Alert({ children, tone = "error", testId }: { children: ReactNode; tone?: "error" | "info"; testId?: string }) {
  return (
    <div className={`alert alert-${tone}`} role={tone === "error" ? "alert" : "status"} data-testid={testId}>
      {children}
    </div>
  );
}
