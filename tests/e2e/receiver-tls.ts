// The certificate of the webhook spec's https receiver, made once per run: in Playwright's main process, which passes it
// to its workers through the environment they inherit, and to the server as a CA file through Node's own
// NODE_EXTRA_CA_CERTS. The app itself has no setting that changes whom it trusts.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createSelfSignedCertificate, type TestCertificate } from "../helpers/tls";

const INHERITED = "E2E_RECEIVER_TLS";

export function receiverTls(): TestCertificate & { caFile: string } {
  const inherited = process.env[INHERITED];
  if (inherited) return JSON.parse(inherited) as TestCertificate & { caFile: string };
  const certificate = createSelfSignedCertificate();
  const caFile = path.join(mkdtempSync(path.join(os.tmpdir(), "lending-e2e-")), "receiver-ca.pem");
  writeFileSync(caFile, certificate.cert);
  const made = { ...certificate, caFile };
  process.env[INHERITED] = JSON.stringify(made);
  return made;
}
