import { useAtomValue } from "jotai";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { Badge } from "../../components/Badge";
import { Button } from "../../components/Button";
import { PageHeader } from "../../components/PageHeader";
import { Segmented } from "../../components/Segmented";
import { identityAtom } from "../../live/atoms";
import { useCan } from "../../live/permissions";
import { AccountingExport } from "./AccountingExport";
import { QUICK_START_LANGUAGES, quickStart, verifyWebhook, type QuickStartLanguage } from "./quickStarts";
import { useApiTokens } from "./useApiTokens";
import { useWebhookEndpoints } from "./useWebhooks";
import "./developers.css";

const LABEL: Record<QuickStartLanguage, string> = { curl: "curl", node: "Node.js", python: "Python", php: "PHP" };
// What a test-mode token starts with, so secret scanners (and people) recognise it.
const TEST_TOKEN_PREFIX = "pdk_test_";

/** What a developer needs to connect in five minutes, and the accounting export. */
export function IntegrationsPage() {
  const { t } = useTranslation();
  const canDevelop = useCan("developers", "read");
  const canExport = useCan("exports", "read");
  const apiBase = `${window.location.origin}/api/v1`;
  return (
    <section className="page" data-testid="integrations-page">
      <PageHeader title={t("screens.integrations")} subtitle={t("developers.integrations.subtitle")} />
      {canDevelop ? (
        <>
          <AtAGlance apiBase={apiBase} />
          <QuickStarts apiBase={apiBase} />
        </>
      ) : null}
      {canExport ? <AccountingExport /> : null}
    </section>
  );
}

function AtAGlance({ apiBase }: { apiBase: string }) {
  const { t } = useTranslation();
  const mode = useAtomValue(identityAtom)?.mode ?? "test";
  const { endpoints, loaded } = useWebhookEndpoints();
  const tokens = useApiTokens();
  const activeTokens = tokens.tokens.filter((token) => token.state === "active").length;
  const enabled = endpoints.filter((endpoint) => endpoint.enabled).length;
  const failing = endpoints.filter((endpoint) => !endpoint.enabled && endpoint.disabledReason).length;
  return (
    <div className="integration-grid">
      <div className="card">
        <h2 className="card-title">{t("developers.integrations.apiBase")}</h2>
        <p className="integration-value" data-testid="integration-api-base">
          {apiBase}
        </p>
        <p className="field-hint">
          <a className="link" href="/api/v1/openapi.json" download="paydesk-openapi.json" data-testid="integration-openapi">
            {t("developers.integrations.openapi")}
          </a>
        </p>
      </div>
      <div className="card">
        <h2 className="card-title">{t("screens.tokens")}</h2>
        {tokens.loaded ? (
          <p className="detail-meta-inline" data-testid="integration-token-count">
            {activeTokens > 0 ? (
              <Badge tone="green">{t("developers.integrations.activeTokens", { count: activeTokens })}</Badge>
            ) : (
              <span className="cell-muted">{t("developers.integrations.noTokens")}</span>
            )}
          </p>
        ) : null}
        <p className="cell-muted">{t("developers.integrations.tokensBody", { prefix: mode === "test" ? TEST_TOKEN_PREFIX : "pdk_live_" })}</p>
        <p className="field-hint">
          <Link className="link" to="/developers/tokens" data-testid="integration-tokens">
            {t("developers.integrations.manageTokens")}
          </Link>
        </p>
      </div>
      <div className="card" data-testid="integration-webhooks">
        <h2 className="card-title">{t("screens.webhooks")}</h2>
        {loaded ? (
          <p className="detail-meta-inline">
            {endpoints.length === 0 ? (
              <span className="cell-muted">{t("developers.integrations.noEndpoints")}</span>
            ) : (
              <>
                <Badge tone="green">{t("developers.integrations.enabledCount", { count: enabled })}</Badge>{" "}
                {failing > 0 ? <Badge tone="red">{t("developers.integrations.failingCount", { count: failing })}</Badge> : null}{" "}
                {endpoints.length - enabled - failing > 0 ? <Badge tone="zinc">{t("developers.integrations.pausedCount", { count: endpoints.length - enabled - failing })}</Badge> : null}
              </>
            )}
          </p>
        ) : null}
        <p className="field-hint">
          <Link className="link" to="/developers/webhooks" data-testid="integration-manage-webhooks">
            {t("developers.integrations.manageWebhooks")}
          </Link>
        </p>
      </div>
    </div>
  );
}

function QuickStarts({ apiBase }: { apiBase: string }) {
  const { t } = useTranslation();
  const [language, setLanguage] = useState<QuickStartLanguage>("curl");
  const options = QUICK_START_LANGUAGES.map((value) => ({ value, label: LABEL[value] }));
  const start = quickStart(language, { apiBase, tokenPrefix: TEST_TOKEN_PREFIX });
  const verify = verifyWebhook(language);
  return (
    <section className="card integration-section" aria-labelledby="quick-start-title" data-testid="quick-starts">
      <h2 id="quick-start-title" className="card-title">
        {t("developers.integrations.quickStart")}
      </h2>
      <p className="cell-muted">{t("developers.integrations.quickStartBody")}</p>
      <Segmented label={t("developers.integrations.language")} value={language} options={options} onChange={setLanguage} testId="quick-start-language" />
      <CodeBlock code={start} testId="quick-start-code" />
      <h3 className="delivery-detail-title integration-subtitle">{t("developers.integrations.verifyTitle")}</h3>
      <p className="cell-muted">{t("developers.integrations.verifyBody")}</p>
      <CodeBlock code={verify} testId="verify-code" />
    </section>
  );
}

function CodeBlock({ code, testId }: { code: string; testId: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }
  return (
    <div className="code-with-copy">
      <pre className="code-block" data-testid={testId}>
        {code}
      </pre>
      <Button variant="ghost" onClick={() => void copy()} data-testid={`${testId}-copy`}>
        {copied ? t("developers.copied") : t("developers.copy")}
      </Button>
    </div>
  );
}
