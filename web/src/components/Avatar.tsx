import type { CSSProperties } from "react";

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return "?";
  const first = parts[0][0] ?? "";
  const last = parts.length > 1 ? (parts[parts.length - 1][0] ?? "") : "";
  return (first + last).toUpperCase();
}

// A stable hue per person, so the same teammate always has the same colour.
function hue(seed: string): number {
  let hash = 0;
  for (const char of seed) hash = (hash * 31 + char.charCodeAt(0)) % 360;
  return hash;
}

export function Avatar({ name, seed, size = "md" }: { name: string; seed: string; size?: "sm" | "md" }) {
  return (
    <span className={`avatar avatar-${size}`} style={{ "--avatar-hue": hue(seed) } as CSSProperties} title={name} aria-label={name} role="img">
      {initials(name)}
    </span>
  );
}
