import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { Providers } from "./app/Providers";
import { startErrorReporting } from "./app/errorReporting";
import { initI18n } from "./app/i18n";
import { createRouter } from "./app/router";
import "./app/styles.css";
import "./app/settings.css";

const router = createRouter();

// Asks the server whether to report errors; the SDK loads only if so.
void startErrorReporting();

// The first paint is in the visitor's language: the app renders once its words are in.
void initI18n().then((i18n) =>
  createRoot(document.getElementById("root") as HTMLElement).render(
    <StrictMode>
      <Providers i18n={i18n}>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  ),
);
