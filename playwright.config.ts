// End-to-end tests in Debian's Chromium against a production build, served the way `npm start` serves it
// (scripts/serve.ts: our HTTP server around Next). `npm test` builds first and provides DATABASE_URL.
import { generateKeyPairSync } from "node:crypto";
import { defineConfig } from "@playwright/test";
import { runCertificate } from "./tests/helpers/tls";

const port = Number(process.env.E2E_PORT ?? 3111);
// A second server on the same build and database with every request routed through Next, at the next port
// (tests/e2e/direct-parity.spec.ts).
const THROUGH_NEXT_PORT = port + 1;
// `npm start` requires a signing key that does not rest in the database in the clear: this run's own.
const signingKey = JSON.stringify({ ...generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" }), kid: "hub-oauth-ed25519" });

export default defineConfig({
  testDir: "tests/e2e",
  // Each spec makes its own project with the admin CLI (and its own addresses where it spends a per-address limit),
  // so spec files run side by side on two workers; the tests within a file keep their order.
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  // The first as `npm start` serves; the second with SERVE_API_THROUGH_NEXT, for the parity spec to compare.
  webServer: [
    { serverPort: port, throughNext: false },
    { serverPort: THROUGH_NEXT_PORT, throughNext: true },
  ].map(({ serverPort, throughNext }) => ({
    command: "node --import tsx scripts/serve.ts start",
    url: `http://127.0.0.1:${serverPort}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(serverPort),
      HOSTNAME: "127.0.0.1",
      // One public address for both, as for processes behind one load balancer: each registers the app's own
      // sign-in client at it on start, and a second address would replace the first's redirect URI.
      BASE_URL: `http://127.0.0.1:${port}`,
      // The webhook spec's receiver listens on 127.0.0.1 and serves https with a certificate made for this run.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      // As behind a reverse proxy: a spec that spends a per-address bucket names an address of its own, and leaves
      // 127.0.0.1's (every other request's) alone.
      TRUSTED_PROXY_HEADER: "x-forwarded-for",
      NODE_EXTRA_CA_CERTS: runCertificate().caFile,
      LOG_LEVEL: "warn",
      OAUTH_SIGNING_KEY: signingKey,
      // npm start requires the app's own sign-in secret (the borrower area's sessions and its client secret at /sso).
      AUTH_SECRET: Buffer.alloc(32, "e2e-app-auth-secret").toString("base64"),
      // The sign-in provider keeps its keys in the database sealed under this (tests/e2e/sign-in.spec.ts): the same
      // every run, since the database outlives a run and keys sealed by one must open in the next.
      OAUTH_KEY_ENCRYPTION_KEY: Buffer.alloc(32, "e2e-sealing-key").toString("base64"),
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: process.env.DATABASE_URL ?? "",
      SERVE_API_THROUGH_NEXT: String(throughNext),
    },
  })),
});
