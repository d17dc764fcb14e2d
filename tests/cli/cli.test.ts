// The admin CLI contract, run in this process against the test database (cli-process.test.ts runs it as a process
// of its own, as an operator does).
import { rmSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { runCommandLine } from "@/bin/command-line";
import { createApplication } from "@/lib/applications/create";
import { submitApplication } from "@/lib/applications/service";
import { demoPublishableKey } from "@/lib/apply-widget/demo";
import { db } from "@/lib/db";
import { decideOnItsClock } from "@/lib/decisions/background";
import { config } from "@/lib/env";
import { hashSecret } from "@/lib/keys/secrets";
import { DEFAULT_SCOPES } from "@/lib/oauth/scopes";
import type { Tenant } from "@/lib/tenant";
import { runCli } from "../helpers/cli";
import { createTestProject } from "../helpers/partner";
import { eventually } from "../helpers/eventually";
import { tenantNow } from "@/lib/tenant-clock";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const CREDENTIALS_FILE = path.join(ROOT, ".data", `cli-test-credentials-${process.pid}.json`);

const cli = (...args: string[]) => runCli({ DEMO_CREDENTIALS_FILE: CREDENTIALS_FILE }, ...args);

describe("project create", () => {
  it("prints the credential contract as JSON and stores only hashes", async () => {
    const { code, stdout } = await cli("project", "create", "--name", "Acme Lending", "--tier", "launch", "--json");
    expect(code).toBe(0);
    const created = JSON.parse(stdout);
    expect(Object.keys(created).sort()).toEqual(["client_id", "live", "project_id", "sandbox", "scopes"]);
    expect(created.project_id).toMatch(/^proj_/);
    expect(created.client_id).toMatch(/^svc_client_[0-9a-z]{26}$/);
    expect(created.sandbox.secret_key).toMatch(/^sk_sandbox_[0-9A-Za-z]{40}$/);
    expect(created.sandbox.publishable_key).toMatch(/^pk_sandbox_[0-9A-Za-z]{40}$/);
    expect(created.live.secret_key).toMatch(/^sk_live_[0-9A-Za-z]{40}$/);
    expect(created.live.publishable_key).toMatch(/^pk_live_[0-9A-Za-z]{40}$/);
    expect(created.scopes).toEqual([...DEFAULT_SCOPES]);

    const project = await db().project.findUniqueOrThrow({ where: { id: created.project_id }, include: { apiKeys: true } });
    expect(project).toMatchObject({ name: "Acme Lending", tier: "launch", status: "active", clientId: created.client_id });
    expect(project.apiKeys).toHaveLength(4);
    const stored = JSON.stringify(project.apiKeys);
    expect(stored).not.toContain(created.sandbox.secret_key);
    expect(project.apiKeys.map((key) => key.secretHash).sort()).toEqual(
      [created.sandbox.secret_key, created.sandbox.publishable_key, created.live.secret_key, created.live.publishable_key].map(hashSecret).sort(),
    );
    const sandboxSecret = project.apiKeys.find((key) => key.secretHash === hashSecret(created.sandbox.secret_key));
    expect(sandboxSecret).toMatchObject({ type: "secret", environment: "sandbox", prefix: "sk_sandbox_", last4: created.sandbox.secret_key.slice(-4) });
  });

  it("defaults the tier to build", async () => {
    const { code, stdout } = await cli("project", "create", "--name", "Tierless", "--json");
    expect(code).toBe(0);
    const project = await db().project.findUniqueOrThrow({ where: { id: JSON.parse(stdout).project_id } });
    expect(project.tier).toBe("build");
  });

  it("prints readable text without --json", async () => {
    const { code, stdout } = await cli("project", "create", "--name", "Text Mode");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Created project proj_\w+ \(build\)/);
    expect(stdout).toContain("Secrets are shown once");
  });
});

describe("seed", () => {
  it("creates the demo project once and reports the same credentials after", async () => {
    rmSync(CREDENTIALS_FILE, { force: true });
    const first = await cli("seed", "--json");
    const second = await cli("seed", "--json");
    rmSync(CREDENTIALS_FILE, { force: true });
    expect(first.code).toBe(0);
    expect(second.code).toBe(0);
    const [one, two] = [JSON.parse(first.stdout), JSON.parse(second.stdout)];
    expect(two.created).toEqual({ project: false, sandbox_keys: false, applications: 0 });
    // Reference data is created once too: the second run finds it all.
    expect(two.platform).toMatchObject({ cms_pages_created: 0, billers_created: 0 });
    expect(await db().cmsPage.count({ where: { key: { in: ["about", "faq", "terms", "privacy", "complaints", "cookies"] }, published: true } })).toBe(6);
    expect(two.demo).toEqual(one.demo);
    expect(one.demo.sandbox.secret_key).toMatch(/^sk_sandbox_/);
    expect(await db().project.count({ where: { isDemo: true } })).toBe(1);
    // The publishable key, and no secret, is kept for the apply.js demo page to publish.
    expect(await demoPublishableKey()).toBe(one.demo.sandbox.publishable_key);
    // It lists the demo page's own origin (/v1/demo on JS_URL), once however often the seed runs.
    const demoKey = await db().apiKey.findUniqueOrThrow({ where: { secretHash: hashSecret(one.demo.sandbox.publishable_key) } });
    expect(demoKey.allowedOrigins).toEqual([new URL(config().JS_URL).origin]);
    expect(JSON.stringify(await db().project.findFirstOrThrow({ where: { isDemo: true } }))).not.toContain("sk_sandbox_");
  });

  it("gives the demo project sandbox applications in several states, once", async () => {
    const demo = await db().project.findFirstOrThrow({ where: { isDemo: true } });
    // The seed's own: the apply.js demo page (/v1/demo) starts applications on the demo project too.
    const applications = await db().application.findMany({ where: { projectId: demo.id, metadata: { path: ["seeded"], equals: "true" } }, orderBy: { id: "asc" } });
    expect(applications.map((application) => [application.reference, application.status])).toEqual([
      ["demo-created", "created"],
      ["demo-approved", "approved"],
      ["demo-declined", "declined"],
      ["demo-referred", "in_review"],
      ["demo-withdrawn", "withdrawn"],
      ["demo-funded", "funded"],
    ]);
  });
});

describe("applications and decisions", () => {
  /** A sandbox application of a project of its own, taken through decisioning by the same services the API uses. */
  async function decidedApplication(companyNumber: string) {
    const tenant: Tenant = { projectId: (await createTestProject()).project_id, environment: "sandbox" };
    const created = await createApplication({
      tenant, now: await tenantNow(tenant),
      input: { business: { company_number: companyNumber }, amount_pence: 5_000_000, term_months: 24, applicant: { email: "director@example.co.uk" } },
    });
    await submitApplication({ tenant, now: await tenantNow(tenant), id: created.id });
    // submitApplication also hands the application to this process's background driver, which may hold the
    // row when we ask: "busy" means it is deciding, so wait for its commit rather than reading too early.
    return eventually(
      () => db().application.findUniqueOrThrow({ where: { id: created.id }, include: { decision: true } }),
      (application) => application.decision !== null,
      { drive: () => decideOnItsClock(created.id) },
    );
  }

  it("shows an application with its decision and events", async () => {
    const application = await decidedApplication("12340060");
    const { code, stdout } = await cli("application", "show", application.id, "--json");
    expect(code).toBe(0);
    const shown = JSON.parse(stdout);
    expect(shown.application).toMatchObject({ id: application.id, status: "approved", business: { company_number: "12340060" } });
    expect(shown.decision).toMatchObject({ id: application.decision!.id, outcome: "approved" });
    expect(shown.events.map((event: { type: string }) => event.type)).toEqual(["application.created", "application.submitted", "decision.completed"]);
    const text = await cli("application", "show", application.id);
    expect(text.stdout).toContain(`decision     ${application.decision!.id} v1: approved 5000000 pence at 1700 bps`);
  });

  it("fails with exit 1 for an unknown application", async () => {
    const { code, stderr } = await cli("application", "show", "app_nope");
    expect(code).toBe(1);
    expect(stderr).toContain("No such application: app_nope");
  });

  it("locks and releases a declined decision, and refuses to lock an approved one", async () => {
    const declined = await decidedApplication("12340001");
    const locked = await cli("decision", "lock", declined.decision!.id, "--by", "ops@example.com", "--json");
    expect(locked.code).toBe(0);
    expect(JSON.parse(locked.stdout)).toMatchObject({ id: declined.decision!.id, locked: true });
    expect((await db().decision.findUniqueOrThrow({ where: { id: declined.decision!.id } })).lockedBy).toBe("ops@example.com");
    const released = await cli("decision", "release", declined.decision!.id, "--json");
    expect(JSON.parse(released.stdout)).toMatchObject({ locked: false });

    const approved = await decidedApplication("12340060");
    const refused = await cli("decision", "lock", approved.decision!.id);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("Only a declined decision can be locked");
  });

  it("resolves a referral, and refuses a second resolution", async () => {
    const referred = await decidedApplication("12340006");
    const usage = await cli("decision", "resolve", referred.decision!.id, "--outcome", "approved", "--reason", "affordability");
    expect(usage.code).toBe(2);
    const resolved = await cli("decision", "resolve", referred.decision!.id, "--outcome", "declined", "--reason", "adverse_credit", "--json");
    expect(resolved.code).toBe(0);
    expect(JSON.parse(resolved.stdout)).toMatchObject({ outcome: "declined", version: 2, reasons: [{ code: "adverse_credit" }] });
    expect((await db().application.findUniqueOrThrow({ where: { id: referred.id } })).status).toBe("declined");
    const again = await cli("decision", "resolve", referred.decision!.id, "--outcome", "approved");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("only a referral can be resolved");
  });
});

describe("project administration", () => {
  it("suspends and re-activates a project", async () => {
    const created = JSON.parse((await cli("project", "create", "--name", "Suspendable", "--json")).stdout);
    const suspended = await cli("project", "suspend", created.project_id, "--json");
    expect(suspended.code).toBe(0);
    expect(JSON.parse(suspended.stdout)).toEqual({ project_id: created.project_id, status: "suspended" });
    expect((await db().project.findUniqueOrThrow({ where: { id: created.project_id } })).status).toBe("suspended");
    expect((await cli("project", "activate", created.project_id)).code).toBe(0);
    expect((await db().project.findUniqueOrThrow({ where: { id: created.project_id } })).status).toBe("active");
  });

  it("revokes outstanding tokens of one environment", async () => {
    const created = JSON.parse((await cli("project", "create", "--name", "Revoker", "--json")).stdout);
    const { code, stdout } = await cli("project", "revoke-tokens", created.project_id, "--environment", "live", "--json");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ project_id: created.project_id, environments: ["live"] });
    const project = await db().project.findUniqueOrThrow({ where: { id: created.project_id } });
    expect(project.liveTokensNotBefore).toBeInstanceOf(Date);
    expect(project.sandboxTokensNotBefore).toBeNull();
  });

  it("fails with exit 1 for an unknown project", async () => {
    const { code, stderr } = await cli("project", "suspend", "proj_nope");
    expect(code).toBe(1);
    expect(stderr).toContain("No such project: proj_nope.");
  });
});

describe("maintenance", () => {
  it("prunes idempotency keys past their retention and reports the count", async () => {
    const project = JSON.parse((await cli("project", "create", "--name", "Maintained", "--json")).stdout);
    const past = new Date(Date.now() - 1_000);
    await db().idempotencyKey.create({
      data: { id: `idem_cli_${process.pid}`, projectId: project.project_id, environment: "sandbox", key: "old", fingerprint: "f", status: "completed", lockedAt: past, createdAt: past, expiresAt: past },
    });
    const { code, stdout } = await cli("maintenance", "run", "--json");
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.idempotency_keys_pruned).toBe(1);
    // Every task of the catalogue reports its count, the newest prunes too.
    expect(Object.keys(report)).toEqual(expect.arrayContaining(["events_pruned", "sign_in_artifacts_pruned", "usage_days_pruned", "personal_data_erased"]));
    expect(await db().idempotencyKey.count({ where: { projectId: project.project_id } })).toBe(0);
  });
});

describe("usage errors exit 2 with usage", () => {
  const PROJECT_CREATE_USAGE = [
    "Usage: npm run --silent cli -- project create --name NAME [--tier build|launch|scale|platform] [--owner-email EMAIL] [--json]",
    "",
    "Create a partner project with its OAuth client and sandbox and live keys (secrets shown once).",
    "",
    "Options:",
    "  --name NAME                         The project's name.",
    "  --tier build|launch|scale|platform  The tier, which sets its live rate limits (default build).",
    "  --owner-email EMAIL                 Where notifications to the partner's team are emailed.",
    "  --json                              Print machine-readable JSON.",
    "",
  ].join("\n");

  it.each([
    [["project", "create", "--name", "X", "--colour", "red"], "Unknown option '--colour'"],
    [["project", "create"], "--name: is required"],
    [["project", "create", "--name", "X", "--tier", "gold"], "--tier:"],
    [["project", "create", "--name", "X", "extra"], "expected 0 argument(s)"],
  ])("%j prints the error and that command's usage, not every command's", async (args, message) => {
    const { code, stdout, stderr } = await cli(...args);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^error: /);
    expect(stderr.split("\n")[0]).toContain(message);
    expect(stderr.endsWith(`\n\n${PROJECT_CREATE_USAGE}`)).toBe(true);
  });

  it.each([
    [["project", "suspend"], "expected 1 argument(s)", "project suspend proj_... [--json]"],
    [["project", "revoke-tokens", "proj_x", "--environment", "staging"], "--environment:", "project revoke-tokens proj_... [--environment sandbox|live] [--json]"],
  ])("%j names the command in its usage", async (args, message, synopsis) => {
    const { code, stderr } = await cli(...args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain(`\n\nUsage: npm run --silent cli -- ${synopsis}\n`);
    expect(stderr).toContain("\nOptions:\n");
    expect(stderr).not.toContain("Commands:");
  });

  it.each([
    [["frobnicate"], "unknown command: frobnicate"],
    [["project", "delete"], "unknown command: project delete"],
    [["help", "frobnicate"], "unknown command: frobnicate"],
  ])("%j prints the command list", async (args, message) => {
    const { code, stdout, stderr } = await cli(...args);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(new RegExp(`^error: ${message}\n\nUsage: npm run --silent cli -- <command> \\[options\\]\n\nCommands:\n`));
    expect(stderr).toContain("  project create --name NAME");
    expect(stderr).toContain("  cms list [--json]");
  });

  it("prints the command list with exit 2 when given no command", async () => {
    const { code, stdout } = await cli();
    expect(code).toBe(2);
    expect(stdout).toMatch(/^Usage: npm run --silent cli -- <command> \[options\]\n\nCommands:\n/);
  });
});

describe("help", () => {
  it("lists every command with exit 0", async () => {
    const { code, stdout } = await cli("help");
    expect(code).toBe(0);
    expect(stdout).toContain("project create --name NAME");
    expect(stdout).toContain("listen --forward-to URL");
    expect(stdout).toContain("One command's options: help <command>, or <command> --help.");
  });

  it("shows one command's usage for help <command> and for <command> --help, and runs nothing", async () => {
    const projects = await db().project.count();
    const [viaHelp, viaFlag, viaShortFlag] = await Promise.all([cli("help", "project", "create"), cli("project", "create", "--help"), cli("project", "create", "--name", "Not Created", "-h")]);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toMatch(/^Usage: npm run --silent cli -- project create --name NAME .*\n\nCreate a partner project .*\n\nOptions:\n  --name NAME  +The project's name\.\n/);
    expect(viaHelp.stdout).not.toContain("Commands:");
    expect(viaFlag).toEqual(viaHelp);
    expect(viaShortFlag).toEqual(viaHelp);
    expect(await db().project.count()).toBe(projects);
  });

  it("lists each flag of listen with what it does", async () => {
    const { code, stdout } = await cli("listen", "--help");
    expect(code).toBe(0);
    const flags = stdout.split("\n").filter((line) => line.startsWith("  --")).map((line) => line.trim().split(/\s+/)[0]);
    expect(flags).toEqual(["--forward-to", "--events", "--client-id", "--api-key", "--api-url", "--max-events", "--print-secret", "--new-secret", "--json"]);
  });
});

describe("in process", () => {
  it("prints only to the streams it is given and answers its exit code, leaving the process and its pool running", async () => {
    const exit = vi.spyOn(process, "exit").mockImplementation(() => {
      throw new Error("the CLI exited the process");
    });
    const processWrites = [vi.spyOn(process.stdout, "write"), vi.spyOn(process.stderr, "write")];
    const stdout: string[] = [];
    const stderr: string[] = [];
    try {
      const code = await runCommandLine(["project", "suspend", "proj_nope"], {
        stdout: { write: (text) => stdout.push(text) },
        stderr: { write: (text) => stderr.push(text) },
        openDatabase: async () => ({ database: db(), close: async () => undefined }),
      });
      expect({ code, stdout, stderr }).toEqual({ code: 1, stdout: [], stderr: ["error: No such project: proj_nope.\n"] });
      expect(exit).not.toHaveBeenCalled();
      for (const write of processWrites) expect(write).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
    }
    expect(await db().project.count({ where: { id: "proj_nope" } })).toBe(0);
  });
});
