export function Spinner({ label }: { label: string }) {
  return (
    <span className="spinner" role="status" aria-label={label}>
      <span className="spinner-ring" aria-hidden="true" />
    </span>
  );
}

export function PageSpinner({ label }: { label: string }) {
  return (
    <div className="page-spinner">
      <Spinner label={label} />
    </div>
  );
}
