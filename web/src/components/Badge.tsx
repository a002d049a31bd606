import type { ReactNode } from "react";

export type BadgeTone = "green" | "zinc" | "amber" | "red" | "blue";

export function Badge({ tone, children }: { tone: BadgeTone; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}
