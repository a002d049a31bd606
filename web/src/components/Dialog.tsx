import * as RadixDialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";
import type { Need } from "../live/access";
import { RoleLock } from "./RoleLock";

type DialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  closeLabel: string;
  children: ReactNode;
  testId?: string;
  size?: "sm" | "lg";
  /** What the member's role must allow for the dialog's form: it locks, its draft kept, once it no longer does. */
  needs?: Need;
};

export function Dialog({ open, onOpenChange, title, description, closeLabel, children, testId, size = "lg", needs }: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content className={`dialog dialog-${size}`} data-testid={testId} {...(description ? {} : { "aria-describedby": undefined })}>
          <div className="dialog-header">
            <RadixDialog.Title className="dialog-title">{title}</RadixDialog.Title>
            <RadixDialog.Close className="icon-button" aria-label={closeLabel}>
              <span aria-hidden="true">×</span>
            </RadixDialog.Close>
          </div>
          {description ? <RadixDialog.Description className="dialog-description">{description}</RadixDialog.Description> : null}
          {needs ? <RoleLock needs={needs}>{children}</RoleLock> : children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
