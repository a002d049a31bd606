import * as RadixDialog from "@radix-ui/react-dialog";
import { lazy, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { opensSearch } from "./shortcut";
import "./search.css";

// The open box and its command menu load on first use: every screen's first load carries the
// header, and a search is a moment's tool.
const SearchDialog = lazy(async () => ({ default: (await import("./SearchDialog")).SearchDialog }));

/** The header's search: a button, and "/" or Ctrl/Cmd+K from anywhere but a field being typed in. */
export function SearchBox() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // Not over another dialog: its focus is kept inside it, and so are its keys.
      if (!opensSearch(event) || document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      event.preventDefault();
      setOpen(true);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return (
    <RadixDialog.Root open={open} onOpenChange={setOpen}>
      <RadixDialog.Trigger className="header-button search-trigger" aria-keyshortcuts="/ Control+K Meta+K" data-testid="search-open">
        <svg viewBox="0 0 24 24" className="icon" aria-hidden="true">
          <circle cx="11" cy="11" r="6.5" />
          <path d="m16 16 4.5 4.5" />
        </svg>
        <span className="search-trigger-label">{t("search.open")}</span>
        <kbd className="search-trigger-key" aria-hidden="true">
          /
        </kbd>
      </RadixDialog.Trigger>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        {open ? (
          <Suspense fallback={null}>
            <SearchDialog onOpen={() => setOpen(false)} />
          </Suspense>
        ) : null}
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
