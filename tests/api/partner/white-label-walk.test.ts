// docs/white-label.md's "The flow, end to end", run as written: its fenced blocks are read from the document (so
// the two cannot drift) and run in bash against the app on a real port, with a project that has the
// white_label capability. Only the credential placeholders are filled in.
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "@/lib/db";
import { changeProjectCapabilities } from "@/lib/projects/capabilities";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { runBash, walkBlocks } from "../../helpers/doc-walk";
import { createTestProject } from "../../helpers/partner";

let server: AppServer;
let project: ProjectCredentials;

beforeAll(async () => {
  server = await startAppServer();
  project = await createTestProject();
  await changeProjectCapabilities(db(), project.project_id, { enable: ["white_label"] });
});
afterAll(() => server?.close());

it("takes a new application to a funded account, printing what each step's comment says", async () => {
  const [exports, walk] = walkBlocks("docs/white-label.md", "## The flow, end to end");
  expect(exports).toContain("svc_client_…");
  const script = [
    "set -e",
    exports!.replace("svc_client_…", project.client_id).replace("sk_sandbox_…", project.sandbox.secret_key),
    walk!,
    'printf "walked APP=%s DEC=%s ACC=%s\\n" "$APP" "$DEC" "$ACC"',
  ].join("\n");
  const run = await runBash(script, server.url);
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });

  const lines = run.stdout.trimEnd().split("\n");
  const walked = /^walked APP=(app_\w+) DEC=(dec_\w+) ACC=(acc_\w+)$/.exec(lines.at(-1)!);
  expect(walked).not.toBeNull();
  const comments = [...walk!.matchAll(/# (\S+)$/gm)].map((match) => match[1]);
  expect(lines.slice(0, -1)).toEqual(comments);
  expect(comments).toEqual(["verified", "0", "40800000", "submitted", "approved", "performing"]);

  const [, applicationId, decisionId, accountId] = walked!;
  expect(await db().application.findUniqueOrThrow({ where: { id: applicationId } })).toMatchObject({ status: "funded", decisionId, accountId });
  const events = await db().event.findMany({ where: { projectId: project.project_id }, orderBy: { id: "asc" } });
  expect(events.map((event) => event.type)).toEqual([
    "application.created",
    "identity.verified",
    "consent.granted",
    "consent.granted",
    "consent.granted",
    "application.submitted",
    "decision.completed",
    "offer.accepted",
    "application.funded",
    "account.activated",
    "payment.created",
    "payment.settled",
  ]);
});
