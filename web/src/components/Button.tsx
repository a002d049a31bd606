import type { ButtonHTMLAttributes, MouseEvent } from "react";
import type { Need } from "../live/access";
import { useMay } from "./useMay";

export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger";

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  busy?: boolean;
  /** What the member's role must allow for the button to work (the server decides; this only shows). */
  needs?: Need;
  /**
   * For a role that may not: "disable" keeps the button in view, refused, with the reason as its
   * tooltip; "hide" leaves it out (an action repeated on every row of a table). A role that
   * cannot even read the section never sees its actions.
   */
  whenRefused?: "disable" | "hide";
};

export function Button({ variant = "secondary", busy = false, className, disabled, type = "button", needs, whenRefused = "disable", title, onClick, ...rest }: ButtonProps) {
  const may = useMay(needs);
  if (!may.allowed && (whenRefused === "hide" || may.unseen)) return null;
  // aria-disabled, not disabled: the button stays focusable, so the reason is read out and shown.
  const refuse = (event: MouseEvent<HTMLButtonElement>) => event.preventDefault();
  return (
    <button
      type={type}
      className={["btn", `btn-${variant}`, className].filter(Boolean).join(" ")}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      aria-disabled={may.allowed ? undefined : true}
      title={may.reason ?? title}
      data-needs={needs}
      onClick={may.allowed ? onClick : refuse}
      {...rest}
    />
  );
}
