import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { isRouteErrorResponse, useLocation, useRouteError } from "react-router";
import { Link } from "../../components/placeLinks";
import { reportError } from "../../app/errorReporting";
import { Button } from "../../components/Button";

export type ErrorVariant = "not-found" | "server-error";

export function ErrorView({ variant, path }: { variant: ErrorVariant; path: string }) {
  const { t } = useTranslation();
  const notFound = variant === "not-found";
  return (
    <section className="error-page" data-testid={notFound ? "not-found" : "server-error"}>
      <p className="error-code" aria-hidden="true">
        {notFound ? "404" : "500"}
      </p>
      <h1 className="error-title">{notFound ? t("errorPage.notFoundTitle") : t("errorPage.serverErrorTitle")}</h1>
      <p className="error-message">
        {notFound ? t("errorPage.notFoundMessage", { path }) : t("errorPage.serverErrorMessage")}
      </p>
      <div className="error-actions">
        <Link to="/" className="btn btn-primary">
          {t("errorPage.home")}
        </Link>
        {notFound ? null : <Button onClick={() => window.location.reload()}>{t("errorPage.reload")}</Button>}
      </div>
    </section>
  );
}

/** react-router errorElement: 404 responses get the not-found variant, anything else the server error. */
export function ErrorPage() {
  const error = useRouteError();
  const { pathname } = useLocation();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // A screen that failed to render is reported (a missing page is not).
  useEffect(() => {
    if (!notFound) reportError(error);
  }, [error, notFound]);
  return <ErrorView variant={notFound ? "not-found" : "server-error"} path={pathname} />;
}

export function NotFoundPage() {
  const { pathname } = useLocation();
  return <ErrorView variant="not-found" path={pathname} />;
}
