import type { ReactNode } from "react";

type SettingsCardProps = { title: string; description?: string; status?: ReactNode; testId?: string; children: ReactNode };

/** One titled block of a settings screen. */
export function SettingsCard({ title, description, status, testId, children }: SettingsCardProps) {
  return (
    <section className="card settings-card" data-testid={testId} aria-label={title}>
      <div className="settings-card-header">
        <div>
          <h2 className="settings-card-title">{title}</h2>
          {description ? <p className="settings-card-description">{description}</p> : null}
        </div>
        {status ? <div className="settings-card-status">{status}</div> : null}
      </div>
      {children}
    </section>
  );
}
