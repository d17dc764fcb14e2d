// The standalone verifiers of docs/webhooks.md, read from the page (so the two cannot drift) and run as an
// integrator would run them: the Node one in node, the Python one in python3, each against deliveries signed by
// the platform's own signer (spec 6.3).
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { signWebhookPayload } from "@/lib/webhooks/signature";

const run = promisify(execFile);
const PAGE = path.resolve(import.meta.dirname, "..", "..", "..", "docs", "webhooks.md");

/** The one block of `language` in the page's "Verifying signatures" section. */
function snippet(language: string): string {
  const text = readFileSync(PAGE, "utf8");
  const start = text.indexOf("## Verifying signatures");
  const section = text.slice(start, text.indexOf("\n## ", start + 1));
  const blocks = [...section.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map((match) => match[1]!);
  expect(blocks).toHaveLength(1);
  return blocks[0]!;
}

interface Delivery {
  body: string;
  header: string | null;
  secret: string;
}

// Each runner reads every delivery from one file and prints one verdict a line, so each language starts once.
const NODE_RUNNER = `
import { readFileSync } from "node:fs";
import { verifyServiceSignature } from "./verify.mjs";
for (const { body, header, secret } of JSON.parse(readFileSync(process.argv[2], "utf8"))) {
  console.log(verifyServiceSignature(Buffer.from(body, "base64"), header ?? undefined, secret) ? "accepted" : "rejected");
}
`;

const PYTHON_RUNNER = `
import base64, json, os, sys
sys.path.insert(0, os.getcwd())
from verify_webhook import verify_service_signature
for delivery in json.load(open(sys.argv[1])):
    body = base64.b64decode(delivery["body"])
    print("accepted" if verify_service_signature(body, delivery["header"], delivery["secret"]) else "rejected")
`;

/** What each verifier answers for each delivery, in order: "accepted" or "rejected". */
async function verdicts(deliveries: readonly Delivery[]): Promise<{ node: string[]; python: string[] }> {
  const directory = mkdtempSync(path.join(tmpdir(), "webhook-verifiers-"));
  try {
    writeFileSync(path.join(directory, "verify.mjs"), snippet("js"));
    writeFileSync(path.join(directory, "verify_webhook.py"), snippet("python"));
    writeFileSync(path.join(directory, "run.mjs"), NODE_RUNNER);
    const input = path.join(directory, "deliveries.json");
    writeFileSync(input, JSON.stringify(deliveries.map((delivery) => ({ ...delivery, body: Buffer.from(delivery.body).toString("base64") }))));
    const [node, python] = await Promise.all([
      run("node", [path.join(directory, "run.mjs"), input], { cwd: directory }),
      run("python3", ["-c", PYTHON_RUNNER, input], { cwd: directory }),
    ]);
    return { node: node.stdout.trim().split("\n"), python: python.stdout.trim().split("\n") };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const SECRET = "whsec_3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c1e";
const BODY = JSON.stringify({ id: "evt_01jd4x8k3m5q7r9s1t3v5w7y9z", type: "application.funded", data: { object: { amount_pence: 5_000_000, reference: "£ order 42" } } });
const now = () => Math.floor(Date.now() / 1000);

const signedAt = now();
const ACCEPTED: Array<[string, Delivery]> = [
  ["a delivery the platform signed just now", { body: BODY, header: signWebhookPayload(BODY, [SECRET], signedAt), secret: SECRET }],
  ["a delivery signed during a secret roll, whichever v1 is theirs", { body: BODY, header: signWebhookPayload(BODY, ["whsec_the_successor_secret", SECRET], signedAt), secret: SECRET }],
  ["a timestamp just inside the 5 minutes", { body: BODY, header: signWebhookPayload(BODY, [SECRET], signedAt - 290), secret: SECRET }],
];
const REJECTED: Array<[string, Delivery]> = [
  ["a tampered body", { body: BODY.replace("5000000", "9000000"), header: signWebhookPayload(BODY, [SECRET], signedAt), secret: SECRET }],
  ["re-serialised JSON", { body: JSON.stringify(JSON.parse(BODY), null, 2), header: signWebhookPayload(BODY, [SECRET], signedAt), secret: SECRET }],
  ["a timestamp 6 minutes old", { body: BODY, header: signWebhookPayload(BODY, [SECRET], signedAt - 360), secret: SECRET }],
  ["a timestamp 6 minutes ahead", { body: BODY, header: signWebhookPayload(BODY, [SECRET], signedAt + 360), secret: SECRET }],
  ["another endpoint's secret", { body: BODY, header: signWebhookPayload(BODY, ["whsec_someone_else"], signedAt), secret: SECRET }],
  ["a changed timestamp", { body: BODY, header: signWebhookPayload(BODY, [SECRET], signedAt).replace(/^t=(\d+)/, (_, t) => `t=${Number(t) - 1}`), secret: SECRET }],
  ["no v1", { body: BODY, header: `t=${signedAt}`, secret: SECRET }],
  ["a v1 that is not hex", { body: BODY, header: `t=${signedAt},v1=not-hex-at-all`, secret: SECRET }],
  ["no header", { body: BODY, header: null, secret: SECRET }],
];

let answers: { node: string[]; python: string[] };

beforeAll(async () => {
  answers = await verdicts([...ACCEPTED, ...REJECTED].map(([, delivery]) => delivery));
});

const verdictOf = (index: number) => ({ node: answers.node[index], python: answers.python[index] });

describe("the standalone webhook verifiers in docs/webhooks.md", () => {
  it("answer once for every delivery", () => {
    expect(answers.node).toHaveLength(ACCEPTED.length + REJECTED.length);
    expect(answers.python).toHaveLength(ACCEPTED.length + REJECTED.length);
  });

  it.each(ACCEPTED.map(([label], index) => [label, index] as const))("accept %s", (_, index) => {
    expect(verdictOf(index)).toEqual({ node: "accepted", python: "accepted" });
  });

  it.each(REJECTED.map(([label], index) => [label, ACCEPTED.length + index] as const))("reject %s", (_, index) => {
    expect(verdictOf(index)).toEqual({ node: "rejected", python: "rejected" });
  });
});
