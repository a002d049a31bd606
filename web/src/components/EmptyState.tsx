import type { ReactNode } from "react";

export function EmptyState({ title, body, action, testId }: { title: string; body?: string; action?: ReactNode; testId?: string }) {
  return (
    <div className="empty-state" data-testid={testId}>
      <div className="empty-state-mark" aria-hidden="true" />
      <h2 className="empty-state-title">{title}</h2>
      {body ? <p className="empty-state-body">{body}</p> : null}
      {action}
    </div>
  );
}
