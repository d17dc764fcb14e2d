// The README's "From zero to a funded sandbox application", run as written: its fenced blocks are read from
// README.md (so the two cannot drift) and run in bash against the app on a real port, twice in a row, as a
// reader who comes back to it would. Only the credential placeholders are filled in.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { runBash, walkBlocks as blocksOf, type Run } from "../../helpers/doc-walk";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";

/** The fenced code blocks of the README's walk section, in order. */
const walkBlocks = () => blocksOf("README.md", "## From zero to a funded sandbox application");

/** The walk in bash under `set -e`, as the README suggests, with the exported credentials filled in. */
function runWalk(baseUrl: string, credentials: { clientId: string; secret: string }): Promise<Run> {
  const [exports, walk] = walkBlocks();
  expect(exports).toContain("svc_client_…");
  expect(exports).toContain("sk_sandbox_…");
  const script = [
    "set -e",
    exports!.replace("svc_client_…", credentials.clientId).replace("sk_sandbox_…", credentials.secret),
    walk!,
    'printf "walked APP=%s DEC=%s ACC=%s\\n" "$APP" "$DEC" "$ACC"',
  ].join("\n");
  return runBash(script, baseUrl);
}

let server: AppServer;
let project: ProjectCredentials;

beforeAll(async () => {
  server = await startAppServer();
  project = await createTestProject();
});
afterAll(() => server?.close());

/** What one successful run printed: the ids it walked and each step's output line. */
function stepsOf(run: Run) {
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
  const lines = run.stdout.split("\n");
  expect(run.stdout.endsWith("\n")).toBe(true);
  const walked = /^walked APP=(app_\w+) DEC=(dec_\w+) ACC=(acc_\w+)$/.exec(lines.at(-2)!);
  expect(walked).not.toBeNull();
  return { app: walked![1]!, decision: walked![2]!, account: walked![3]!, lines: lines.slice(0, -2) };
}

describe("the README's walk to a funded application", () => {
  it("has the credentials block and the walk", () => {
    expect(walkBlocks()).toHaveLength(2);
  });

  it("funds a new application on each of two runs in a row", async () => {
    const credentials = { clientId: project.client_id, secret: project.sandbox.secret_key };
    const first = stepsOf(await runWalk(server.url, credentials));
    const second = stepsOf(await runWalk(server.url, credentials));
    expect(second.app).not.toBe(first.app);
    expect(second.decision).not.toBe(first.decision);

    const token = await mintToken(server.url, project);
    for (const run of [first, second]) {
      expect(run.lines).toHaveLength(4);
      expect(run.lines[0]).toBe("submitted");
      expect(JSON.parse(run.lines[1]!)).toMatchObject({ object: "decision", id: run.decision, application_id: run.app, outcome: "approved" });
      const account = JSON.parse(run.lines[2]!);
      expect(account).toMatchObject({ id: run.account, object: "account", status: "performing", application_id: run.app, principal_pence: 5_000_000, term_months: 24 });
      expect(account.balance).toEqual({ principal_outstanding_pence: 5_000_000, interest_accrued_pence: 0, arrears_pence: 0, payoff_pence: 5_000_000 });
      expect(account.schedule).toHaveLength(24);
      const ledger = JSON.parse(run.lines[3]!);
      expect(ledger.data).toMatchObject([{ object: "transaction", type: "drawdown", amount_pence: -5_000_000 }]);
      const application = await (await fetch(`${server.url}/partner/v1/applications/${run.app}`, bearer(token))).json();
      expect(application).toMatchObject({ id: run.app, status: "funded", decision: run.decision, account_id: run.account, reference: "order-42" });
    }
  });

  it("stops at the first refused call with its error body, carrying nothing forward", async () => {
    const run = await runWalk(server.url, { clientId: project.client_id, secret: "sk_sandbox_not-the-secret" });
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe("");
    const [heading, body] = run.stderr.trimEnd().split("\n");
    expect(heading).toBe("POST /oauth/token: HTTP 401");
    expect(JSON.parse(body!)).toMatchObject({ error: "invalid_client" });
    expect(run.stderr).not.toContain("undefined");
  });
});
