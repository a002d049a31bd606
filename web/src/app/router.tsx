import { createBrowserRouter, Outlet, type RouteObject } from "react-router";
import { ErrorPage, NotFoundPage } from "../features/errors/ErrorPage";
import { TwoFactorGate } from "../features/profile/TwoFactorGate";
import { Guard } from "./Guard";
import { PlaceOutlet, PlaceSync } from "./PlaceSync";
import { AuthLayout } from "./layouts/AuthLayout";
import { DefaultLayout } from "./layouts/DefaultLayout";
import { routes, type Access, type Layout } from "./routes";
import { RouteScreen } from "./screens";
import { SessionSync } from "./SessionSync";
import { useApplyTheme } from "./theme";

function Root() {
  useApplyTheme();
  return (
    <>
      <SessionSync />
      <PlaceSync />
      <Outlet />
    </>
  );
}

function children(layout: Layout, access: Access): RouteObject[] {
  return routes
    .filter((entry) => entry.layout === layout && entry.access === access)
    .map((entry) => ({ path: entry.path, element: <RouteScreen entry={entry} />, errorElement: <ErrorPage /> }));
}

function guarded(access: Access) {
  return (
    <Guard access={access}>
      {access === "protected" ? (
        <TwoFactorGate>
          <PlaceOutlet />
        </TwoFactorGate>
      ) : (
        <Outlet />
      )}
    </Guard>
  );
}

export const routeObjects: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <ErrorPage />,
    children: [
      {
        element: (
          <Guard access="protected">
            <DefaultLayout />
          </Guard>
        ),
        children: children("default", "protected"),
      },
      {
        element: <AuthLayout />,
        children: [
          { element: guarded("guest"), children: children("auth", "guest") },
          { children: children("auth", "open") },
        ],
      },
      { element: guarded("protected"), children: children("none", "protected") },
      { path: "*", element: <NotFoundPage /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routeObjects);
}
