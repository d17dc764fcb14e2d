// The application object has two renderers: serializeApplication (events, create, every other path) and
// applicationJsonSql (PostgreSQL renders it for the point read and the list). They must give the same object,
// field for field and in the same key order, for every kind of row.
import { beforeAll, describe, expect, it } from "vitest";
import { retrieveApplication } from "@/lib/applications/queries";
import { applicationJsonSql, serializeApplication } from "@/lib/applications/serialize";
import { db } from "@/lib/db";
import { readRows } from "@/lib/fast-lane";
import { Prisma, type Application } from "@/lib/generated/prisma/client";
import { newId, randomToken } from "@/lib/ids";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { createTestProject } from "../../helpers/partner";
import { renderedOrErrorCode } from "../../helpers/rendered-reads";

// Far in the future: other test files' sweeps run on the real clock and must never touch these rows.
const CREATED_AT = new Date("2027-03-01T09:00:00.000Z");

let project: ProjectCredentials;

beforeAll(async () => {
  project = await createTestProject();
});

async function insert(overrides: Partial<Prisma.ApplicationUncheckedCreateInput>): Promise<Application> {
  return db().application.create({
    data: {
      id: newId("application"),
      projectId: project.project_id,
      environment: "sandbox",
      status: "created",
      companyNumber: "12345678",
      companyName: "Sandbox Trading 12345678 Ltd",
      companyKind: "private_limited_company",
      incorporatedOn: "1969-07-01",
      amountPence: 2_500_000,
      termMonths: 24,
      handoffToken: randomToken(32),
      expiresAt: new Date("2027-03-15T09:00:00.000Z"),
      createdAt: CREATED_AT,
      updatedAt: CREATED_AT,
      ...overrides,
    },
  });
}

async function renderedByPostgres(id: string): Promise<string> {
  const [row] = await readRows<{ json: string }>(Prisma.sql`SELECT ${applicationJsonSql()} AS json FROM applications WHERE id = ${id}`);
  return row!.json;
}

const ROWS: Record<string, Partial<Prisma.ApplicationUncheckedCreateInput>> = {
  "a new application with every optional field empty": {},
  "a live application": { environment: "live" },
  "an application with purpose, reference and metadata": {
    purpose: "asset_finance",
    reference: "order-42",
    metadata: { crm_id: "C-7", region: "north" },
  },
  "text that JSON must escape": {
    companyName: 'O\'Brien "Quotes" \\ Back\nslash & Tab\t Ltd',
    reference: "ref <script>alert(1)</script> \u2028",
    metadata: { note: "emoji 🚀, accents é, CJK 漢字, quote \" and backslash \\", "key with spaces": "x" },
  },
  "a submitted application decided and linked to its decision": {
    status: "approved",
    submittedAt: new Date("2027-03-02T10:30:00.120Z"),
    decisionId: newId("decision"),
  },
  "a withdrawn application with a reason": {
    status: "withdrawn",
    submittedAt: new Date("2027-03-02T10:30:00.007Z"),
    withdrawnAt: new Date("2027-03-03T23:59:59.999Z"),
    withdrawalReason: "The director found another lender.",
  },
  "a Flex application": { product: "flex" },
  "a funded application introduced by a partner": {
    status: "funded",
    product: "flex",
    accountId: newId("account"),
    submittedAt: new Date("2027-03-02T10:30:00.000Z"),
    fundedAt: new Date("2028-01-01T00:00:00.001Z"),
    introductionId: "intro_01hx0000000000000000000000",
  },
};

describe("applicationJsonSql renders what serializeApplication returns", () => {
  it.each(Object.entries(ROWS))("for %s", async (_name, overrides) => {
    const row = await insert(overrides);
    const text = await renderedByPostgres(row.id);
    const expected = serializeApplication(row);

    expect(JSON.parse(text)).toEqual(expected);
    // Key order too: the two renderings must be interchangeable byte for byte once re-serialised.
    expect(JSON.stringify(JSON.parse(text))).toBe(JSON.stringify(expected));
  });

  it("writes timestamps exactly as toISOString does, milliseconds included", async () => {
    const row = await insert({ status: "submitted", submittedAt: new Date("2027-12-31T23:59:59.050Z") });
    const rendered = JSON.parse(await renderedByPostgres(row.id)) as Record<string, unknown>;
    expect(rendered.submitted_at).toBe("2027-12-31T23:59:59.050Z");
    expect(rendered.created_at).toBe("2027-03-01T09:00:00.000Z");
    expect(rendered.withdrawn_at).toBeNull();
  });
});

describe("retrieveApplication", () => {
  it("answers point reads made together (one query) each with its own application, refusing another project's and the other environment's", async () => {
    const [sandbox, live] = [await insert({ termMonths: 6 }), await insert({ environment: "live", termMonths: 9 })];
    const other = await createTestProject();
    const outcomes = await renderedOrErrorCode([
      retrieveApplication({ tenant: { projectId: project.project_id, environment: "sandbox" }, id: sandbox.id }),
      retrieveApplication({ tenant: { projectId: other.project_id, environment: "sandbox" }, id: sandbox.id }),
      retrieveApplication({ tenant: { projectId: project.project_id, environment: "live" }, id: live.id }),
      retrieveApplication({ tenant: { projectId: project.project_id, environment: "sandbox" }, id: live.id }),
    ]);
    expect(outcomes).toEqual([
      expect.objectContaining({ id: sandbox.id, term_months: 6 }),
      "not_found",
      expect.objectContaining({ id: live.id, term_months: 9 }),
      "environment_mismatch",
    ]);
  });
});
