import type { ReactNode } from "react";

export function EmptyState({ title, body, action, testId }: { title: string; body?: string; action?: ReactNode; testId?: string }) {
  return (
    <div className="empty-state" data-testid={testId}>
      <div className="empty-state-mark" aria-hidden="true">
        <svg viewBox="0 0 24 24" className="icon">
          <path d="M21 8l-9-5-9 5 9 5 9-5z" />
          <path d="M3 8v8l9 5 9-5V8" />
          <path d="M12 13v8" />
        </svg>
      </div>
      <h2 className="empty-state-title">{title}</h2>
      {body ? <p className="empty-state-body">{body}</p> : null}
      {action}
    </div>
  );
}
