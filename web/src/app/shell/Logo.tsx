export function Logo() {
  return (
    <svg viewBox="0 0 32 32" className="logo" aria-hidden="true">
      <rect width="32" height="32" rx="8" className="logo-bg" />
      <path d="M9 17l5 5 9-12" className="logo-mark" />
    </svg>
  );
}
