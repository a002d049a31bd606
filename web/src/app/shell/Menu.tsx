import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import type { ReactNode } from "react";

type MenuProps = { trigger: ReactNode; label: string; testId?: string; children: ReactNode };

// A small shell over the dropdown primitive, so every header menu looks and behaves alike.
export function Menu({ trigger, label, testId, children }: MenuProps) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="header-button" aria-label={label} data-testid={testId}>
        {trigger}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={6}>
          {children}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

type ChoiceProps<T extends string> = {
  label?: string;
  value: T;
  options: { value: T; label: string; testId?: string }[];
  onChange: (value: T) => void;
};

export function MenuChoice<T extends string>({ label, value, options, onChange }: ChoiceProps<T>) {
  return (
    <>
      {label ? <DropdownMenu.Label className="menu-label">{label}</DropdownMenu.Label> : null}
      <DropdownMenu.RadioGroup value={value} onValueChange={(next) => onChange(next as T)}>
        {options.map((option) => (
          <DropdownMenu.RadioItem key={option.value} value={option.value} className="menu-item" data-testid={option.testId}>
            <DropdownMenu.ItemIndicator className="menu-check">✓</DropdownMenu.ItemIndicator>
            {option.label}
          </DropdownMenu.RadioItem>
        ))}
      </DropdownMenu.RadioGroup>
    </>
  );
}

export const MenuItem = DropdownMenu.Item;
export const MenuSeparator = DropdownMenu.Separator;
