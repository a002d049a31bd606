// The integrations page's examples, filled in with this merchant's test-mode values. Kept apart
// from the page so a test can check each one is complete and names nothing it does not define.

export type QuickStartLanguage = "curl" | "node" | "python" | "php";
export const QUICK_START_LANGUAGES: readonly QuickStartLanguage[] = ["curl", "node", "python", "php"];

export type QuickStartValues = {
  /** Where the machine API answers, e.g. `https://pay.example.co.za/api/v1`. */
  apiBase: string;
  /** What a test-mode token starts with (the secret itself is shown only when it is made). */
  tokenPrefix: string;
};

/** A first request: list the customers, then add one (with an idempotency key, so a retry is safe). */
export function quickStart(language: QuickStartLanguage, { apiBase, tokenPrefix }: QuickStartValues): string {
  const token = `${tokenPrefix}…`;
  switch (language) {
    case "curl":
      return [
        `export PAYDESK_TOKEN="${token}"`,
        ``,
        `curl ${apiBase}/customers \\`,
        `  -H "Authorization: Bearer $PAYDESK_TOKEN"`,
        ``,
        `curl ${apiBase}/customers \\`,
        `  -H "Authorization: Bearer $PAYDESK_TOKEN" \\`,
        `  -H "Content-Type: application/json" \\`,
        `  -H "Idempotency-Key: $(uuidgen)" \\`,
        `  -d '{"name": "Thandi Nkosi", "email": "thandi@example.co.za"}'`,
      ].join("\n");
    case "node":
      return [
        `// PAYDESK_TOKEN="${token}" node quickstart.mjs`,
        `const base = "${apiBase}";`,
        `const headers = { Authorization: \`Bearer \${process.env.PAYDESK_TOKEN}\` };`,
        ``,
        `const list = await fetch(\`\${base}/customers\`, { headers });`,
        `console.log(await list.json());`,
        ``,
        `const made = await fetch(\`\${base}/customers\`, {`,
        `  method: "POST",`,
        `  headers: { ...headers, "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },`,
        `  body: JSON.stringify({ name: "Thandi Nkosi", email: "thandi@example.co.za" }),`,
        `});`,
        `console.log(made.status, await made.json());`,
      ].join("\n");
    case "python":
      return [
        `# PAYDESK_TOKEN="${token}" python quickstart.py`,
        `import os, uuid, requests`,
        ``,
        `base = "${apiBase}"`,
        `headers = {"Authorization": f"Bearer {os.environ['PAYDESK_TOKEN']}"}`,
        ``,
        `print(requests.get(f"{base}/customers", headers=headers).json())`,
        ``,
        `made = requests.post(`,
        `    f"{base}/customers",`,
        `    headers={**headers, "Idempotency-Key": str(uuid.uuid4())},`,
        `    json={"name": "Thandi Nkosi", "email": "thandi@example.co.za"},`,
        `)`,
        `print(made.status_code, made.json())`,
      ].join("\n");
    case "php":
      return [
        `<?php`,
        `// PAYDESK_TOKEN="${token}" php quickstart.php`,
        `$base = '${apiBase}';`,
        `$token = getenv('PAYDESK_TOKEN');`,
        ``,
        `$ch = curl_init("$base/customers");`,
        `curl_setopt_array($ch, [`,
        `    CURLOPT_RETURNTRANSFER => true,`,
        `    CURLOPT_HTTPHEADER => ["Authorization: Bearer $token"],`,
        `]);`,
        `echo curl_exec($ch);`,
        ``,
        `$ch = curl_init("$base/customers");`,
        `curl_setopt_array($ch, [`,
        `    CURLOPT_RETURNTRANSFER => true,`,
        `    CURLOPT_POST => true,`,
        `    CURLOPT_HTTPHEADER => [`,
        `        "Authorization: Bearer $token",`,
        `        'Content-Type: application/json',`,
        `        'Idempotency-Key: ' . bin2hex(random_bytes(16)),`,
        `    ],`,
        `    CURLOPT_POSTFIELDS => json_encode(['name' => 'Thandi Nkosi', 'email' => 'thandi@example.co.za']),`,
        `]);`,
        `echo curl_exec($ch);`,
      ].join("\n");
  }
}

/** Checking a delivery with the Standard Webhooks library of each language: the raw body, the three headers, the secret. */
export function verifyWebhook(language: QuickStartLanguage): string {
  switch (language) {
    case "curl":
      return [
        `# The signature is base64(HMAC-SHA256(key, "{webhook-id}.{webhook-timestamp}.{body}")),`,
        `# the key being the base64-decoded part of the secret after "whsec_".`,
        `printf '%s' "$WEBHOOK_ID.$WEBHOOK_TIMESTAMP.$BODY" \\`,
        `  | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$(printf '%s' "\${SECRET#whsec_}" | base64 -d | xxd -p -c 256)" -binary \\`,
        `  | base64`,
        `# Compare with each "v1,…" entry of the webhook-signature header.`,
      ].join("\n");
    case "node":
      return [
        `// npm install standardwebhooks`,
        `import { Webhook } from "standardwebhooks";`,
        ``,
        `const wh = new Webhook(process.env.PAYDESK_WEBHOOK_SECRET); // whsec_…`,
        `// rawBody: the request body exactly as received (a string, before any JSON parsing).`,
        `const event = wh.verify(rawBody, {`,
        `  "webhook-id": req.headers["webhook-id"],`,
        `  "webhook-timestamp": req.headers["webhook-timestamp"],`,
        `  "webhook-signature": req.headers["webhook-signature"],`,
        `}); // throws when the signature, the timestamp or the body is wrong`,
      ].join("\n");
    case "python":
      return [
        `# pip install standardwebhooks`,
        `import os`,
        `from standardwebhooks.webhooks import Webhook`,
        ``,
        `wh = Webhook(os.environ["PAYDESK_WEBHOOK_SECRET"])  # whsec_…`,
        `# raw_body: the request body exactly as received; headers: the request's headers.`,
        `event = wh.verify(raw_body, headers)  # raises when anything is wrong`,
      ].join("\n");
    case "php":
      return [
        `<?php`,
        `// composer require standard-webhooks/standard-webhooks`,
        `$wh = new \\StandardWebhooks\\Webhook(getenv('PAYDESK_WEBHOOK_SECRET')); // whsec_…`,
        `$event = $wh->verify(file_get_contents('php://input'), [`,
        `    'webhook-id' => $_SERVER['HTTP_WEBHOOK_ID'],`,
        `    'webhook-timestamp' => $_SERVER['HTTP_WEBHOOK_TIMESTAMP'],`,
        `    'webhook-signature' => $_SERVER['HTTP_WEBHOOK_SIGNATURE'],`,
        `]); // throws when anything is wrong`,
      ].join("\n");
  }
}
