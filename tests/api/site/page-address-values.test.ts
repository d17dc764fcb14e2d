// What the pages read from their address (path parameters and the query) goes through the APIs' request-string
// rule (lib/wire/request-string.ts): a value PostgreSQL cannot store (a NUL), or one of the wrong form, is
// ignored or names nothing, as an unknown one would, and never reaches a query (it was a 500). Each page that
// reads its address is rendered here as Next renders it, against the real database.
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import JourneyStepPage from "@/app/(apply)/apply/[token]/[step]/page";
import JourneyEntry from "@/app/(apply)/apply/[token]/page";
import PaymentLinkPage from "@/app/(apply)/pay/[token]/page";
import ApplyJsDemo from "@/app/(widget)/v1/demo/page";
import { createApplication } from "@/lib/applications/create";
import { db } from "@/lib/db";
import type { Tenant } from "@/lib/tenant";
import { createTestProject } from "../../helpers/partner";
import { tenantNow } from "@/lib/tenant-clock";

let tenant: Tenant;

beforeAll(async () => {
  tenant = { projectId: (await createTestProject()).project_id, environment: "sandbox" };
});

async function newApplication() {
  const application = await createApplication({
    tenant, now: await tenantNow(tenant),
    input: { business: { company_number: "12990042" }, amount_pence: 2_500_000, term_months: 12, applicant: { email: "ada@example.co.uk" } },
  });
  const { handoffToken } = await db().application.findUniqueOrThrow({ where: { id: application.id } });
  return { id: application.id, token: handoffToken };
}

/** Where a page sends the browser: Next's redirect() throws, with the address in its digest. */
async function redirectOf(page: Promise<unknown>): Promise<string> {
  const thrown = await page.then(
    () => null,
    (error: unknown) => error,
  );
  const digest = (thrown as { digest?: string } | null)?.digest ?? String(thrown);
  const match = /^NEXT_REDIRECT;\w+;([^;]+);/.exec(digest);
  if (!match) throw new Error(`no redirect: ${digest}`);
  return match[1]!;
}

function text(element: React.ReactElement): string {
  return renderToStaticMarkup(element).replace(/<[^>]+>/g, " ").replace(/&#x27;/g, "'").replace(/\s+/g, " ").trim();
}

const callerStateOf = async (id: string) => (await db().applicationJourney.findUniqueOrThrow({ where: { applicationId: id } })).callerState;

describe("/apply/{token}", () => {
  it("ignores a state with a NUL: the journey opens at its step and keeps no state", async () => {
    const { id, token } = await newApplication();
    const page = JourneyEntry({ params: Promise.resolve({ token }), searchParams: Promise.resolve({ state: "order\u00007" }) });
    expect(await redirectOf(page)).toBe(`/apply/${token}/company`);
    expect(await callerStateOf(id)).toBeNull();
  });

  it("keeps a good state, and ignores a state given twice", async () => {
    const { id, token } = await newApplication();
    expect(await redirectOf(JourneyEntry({ params: Promise.resolve({ token }), searchParams: Promise.resolve({ state: "order-7" }) }))).toBe(`/apply/${token}/company`);
    expect(await callerStateOf(id)).toBe("order-7");
    expect(await redirectOf(JourneyEntry({ params: Promise.resolve({ token }), searchParams: Promise.resolve({ state: ["a", "b"] }) }))).toBe(`/apply/${token}/company`);
    expect(await callerStateOf(id)).toBe("order-7");
  });

  it("says a token with a NUL names no application", async () => {
    const element = await JourneyEntry({ params: Promise.resolve({ token: "abcdefghijklmnop\u0000" }), searchParams: Promise.resolve({}) });
    expect(text(element as React.ReactElement)).toContain("This application link is not valid");
  });
});

describe("/apply/{token}/{step}", () => {
  it("says a token or a step with a NUL names nothing", async () => {
    const { token } = await newApplication();
    for (const params of [{ token: `${token}\u0000`, step: "company" }, { token, step: "company\u0000" }]) {
      expect(text(await JourneyStepPage({ params: Promise.resolve(params) }))).toContain("This application link is not valid");
    }
  });
});

describe("/pay/{token}", () => {
  it("answers a token with a NUL as a link that does not exist", async () => {
    const page = PaymentLinkPage({ params: Promise.resolve({ token: `${"a".repeat(31)}\u0000` }) });
    await expect(page).rejects.toMatchObject({ digest: "NEXT_HTTP_ERROR_FALLBACK;404" });
  });
});

describe("/v1/demo", () => {
  it("shows the application_id it came back with, and ignores one with a NUL", async () => {
    expect(text(await ApplyJsDemo({ searchParams: Promise.resolve({ application_id: "app_01aaaaaaaaaaaaaaaaaaaaaaaa" }) }))).toContain(
      "Welcome back from application app_01aaaaaaaaaaaaaaaaaaaaaaaa",
    );
    expect(text(await ApplyJsDemo({ searchParams: Promise.resolve({ application_id: "app_01aaaaaaaaaaaaaaaaaaaaaaaa\u0000" }) }))).not.toContain("Welcome back");
  });
});
