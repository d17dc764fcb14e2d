// GET /public/v1/cms/pages/{key} (spec 4.8, 2.10, 7.3) over HTTP: a published page is the 2.10 object; unknown,
// unpublished and malformed keys get one indistinguishable 404. Also the CMS service and the page seeding.
// Keys carry a random suffix because the database is shared with other test files.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freezeClock, restoreClock } from "@/lib/clock";
import { seedCmsPages, SEEDED_CMS_PAGE_KEYS } from "@/lib/cms/seed-pages";
import { getPublishedPage, listPages, listPublishedPages, savePage, setPublished } from "@/lib/cms/service";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError } from "../../helpers/http";

let server: AppServer;
beforeAll(async () => {
  server = await startAppServer();
});
afterAll(() => server?.close());

function uniqueKey(label: string): string {
  return `cms-test-${label}-${randomBytes(5).toString("hex")}`;
}

function getPage(key: string): Promise<Response> {
  return fetch(`${server.url}/public/v1/cms/pages/${key}`);
}

/** Header names, and the values that must not vary between two answers of the same kind. */
function headerShape(response: Response) {
  const names: string[] = [];
  response.headers.forEach((_value, name) => names.push(name));
  const stable = ["content-type", "cache-control", "ratelimit-limit", "ratelimit-policy"];
  return { names: names.filter((name) => name !== "date").sort(), stable: Object.fromEntries(stable.map((name) => [name, response.headers.get(name)])) };
}

async function bodyWithoutCorrelationId(response: Response): Promise<string> {
  const body = await expectApiError(response, 404, "cms_page_not_found");
  const { correlation_id: _correlationId, ...rest } = body.error;
  return JSON.stringify({ error: rest });
}

describe("GET /public/v1/cms/pages/{key}", () => {
  it("serves a published page as exactly {key, title, html, updated}, cacheable for 60 seconds", async () => {
    const key = uniqueKey("published");
    freezeClock("2031-05-06T07:08:09.123Z");
    await savePage({ key, title: "  Fees explained ", format: "markdown", source: "# Fees\n\nNo [hidden](https://example.com/fees) fees.\n", publish: true });
    restoreClock();

    const response = await getPage(key);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      key,
      title: "Fees explained",
      html: '<h1>Fees</h1>\n<p>No <a href="https://example.com/fees" rel="noopener noreferrer">hidden</a> fees.</p>\n',
      updated: "2031-05-06T07:08:09.123Z",
    });
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
    expect(response.headers.get("ratelimit-limit")).toBe("60");
    expect(response.headers.get("ratelimit-policy")).toBe("60;w=60");
  });

  it("answers unknown, unpublished, upper-case, path-like, over-long and NUL-bearing keys with byte-identical 404s", async () => {
    const draft = uniqueKey("draft");
    await savePage({ key: draft, title: "Draft", format: "html", source: "<p>Not yet</p>" });
    const published = uniqueKey("about");
    await savePage({ key: published, title: "About", format: "html", source: "<p>About</p>", publish: true });

    const keys = [uniqueKey("unknown"), draft, published.toUpperCase(), "About", "..%2Fetc", "a".repeat(65), "double--hyphen", "-leading", "about%00"];
    const responses = await Promise.all(keys.map(getPage));
    const shapes = responses.map(headerShape);
    const bodies = await Promise.all(responses.map(bodyWithoutCorrelationId));

    expect(bodies[0]).toBe(
      JSON.stringify({ error: { code: "cms_page_not_found", type: "invalid_request_error", message: "No such page.", retryable: false } }),
    );
    expect(new Set(bodies)).toEqual(new Set([bodies[0]]));
    for (const shape of shapes) expect(shape).toEqual(shapes[0]);
    expect(shapes[0]!.stable).toEqual({
      "content-type": "application/json",
      "cache-control": "no-store",
      "ratelimit-limit": "60",
      "ratelimit-policy": "60;w=60",
    });
  });

  it("stops serving a page once it is unpublished, with the unknown-key answer", async () => {
    const key = uniqueKey("withdrawn");
    await savePage({ key, title: "Soon gone", format: "html", source: "<p>x</p>", publish: true });
    expect((await getPage(key)).status).toBe(200);

    await setPublished(key, false);
    const withdrawn = await bodyWithoutCorrelationId(await getPage(key));
    const unknown = await bodyWithoutCorrelationId(await getPage(uniqueKey("never")));
    expect(withdrawn).toBe(unknown);
  });

  it("serves a saved page's script-bearing source inert", async () => {
    const key = uniqueKey("xss");
    const source = [
      `<h2>Hello</h2><script>alert(document.cookie)</script>`,
      `<img src=x onerror=alert(1)>`,
      `<a href="JaVaScRiPt:alert(1)" onclick="alert(2)">click</a>`,
      `<svg onload=alert(1)><script>alert(3)</script></svg>`,
      `<iframe src="https://evil.example/"></iframe>`,
      `<p style="background:url(javascript:alert(1))">styled</p>`,
      `<img src="data:text/html;base64,PHNjcmlwdD4=">`,
    ].join("");
    await savePage({ key, title: "Hostile", format: "html", source, publish: true });

    const response = await getPage(key);
    expect(response.status).toBe(200);
    expect((await response.json()).html).toBe(`<h2>Hello</h2><img src="x" /><a rel="noopener noreferrer">click</a><p>styled</p><img />`);
    const stored = await db().cmsPage.findUniqueOrThrow({ where: { key } });
    expect(stored.source).toBe(source);
  });
});

describe("the CMS service", () => {
  it("refuses a key that is not a lower-case slug of at most 64 characters", async () => {
    for (const key of ["About", "a_b", "a".repeat(65), "", "-x", "x-"]) {
      await expect(savePage({ key, title: "T", format: "html", source: "" })).rejects.toMatchObject({ code: "validation_failed", detail: [{ field: "key" }] });
    }
    const longest = `k${randomBytes(4).toString("hex")}${"a".repeat(55)}`;
    expect(longest).toHaveLength(64);
    await expect(savePage({ key: longest, title: "Longest", format: "html", source: "" })).resolves.toMatchObject({ key: longest });
  });

  it("refuses an empty or over-long title", async () => {
    for (const title of ["   ", "t".repeat(201)]) {
      await expect(savePage({ key: uniqueKey("title"), title, format: "html", source: "" })).rejects.toMatchObject({
        code: "validation_failed",
        detail: [{ field: "title" }],
      });
    }
  });

  it("replaces content on a second save, keeping visibility unless told and moving updated", async () => {
    const key = uniqueKey("resave");
    freezeClock("2031-01-01T00:00:00.000Z");
    await savePage({ key, title: "First", format: "html", source: "<p>one</p>", publish: true });
    freezeClock("2031-02-01T00:00:00.000Z");
    const second = await savePage({ key, title: "Second", format: "markdown", source: "two" });
    expect(second).toEqual({ key, title: "Second", format: "markdown", published: true, updated: "2031-02-01T00:00:00.000Z", created: "2031-01-01T00:00:00.000Z" });
    expect(await getPublishedPage(key)).toEqual({ key, title: "Second", html: "<p>two</p>\n", updated: "2031-02-01T00:00:00.000Z" });

    freezeClock("2031-03-01T00:00:00.000Z");
    expect(await setPublished(key, false)).toMatchObject({ published: false, updated: "2031-02-01T00:00:00.000Z" });
    expect(await savePage({ key, title: "Third", format: "html", source: "<p>3</p>" })).toMatchObject({ published: false });
  });

  it("throws cms_page_not_found naming the key when publishing an unknown page", async () => {
    const key = uniqueKey("missing");
    const error = await setPublished(key, true).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: "cms_page_not_found", message: `No such page: ${key}.` });
  });

  it("lists published pages in the 2.10 shape and every page with its visibility", async () => {
    const shown = uniqueKey("listed");
    const hidden = uniqueKey("hidden");
    freezeClock("2031-04-01T12:00:00.000Z");
    await savePage({ key: shown, title: "Shown", format: "html", source: "<p>s</p>", publish: true });
    await savePage({ key: hidden, title: "Hidden", format: "html", source: "<p>h</p>" });

    const published = await listPublishedPages();
    expect(published).toContainEqual({ key: shown, title: "Shown", html: "<p>s</p>", updated: "2031-04-01T12:00:00.000Z" });
    expect(published.map((page) => page.key)).not.toContain(hidden);
    const all = await listPages();
    expect(all.filter((page) => page.key === shown || page.key === hidden).map((page) => [page.key, page.published]).sort()).toEqual(
      [[shown, true], [hidden, false]].sort(),
    );
  });
});

describe("seedCmsPages", () => {
  // Inside a transaction that is rolled back, so the shared database's own copies of these pages are untouched.
  class Rollback extends Error {}

  it("creates and publishes the seven standard pages once, and never overwrites or revives an edited page", async () => {
    freezeClock("2031-06-01T00:00:00.000Z");
    await db()
      .$transaction(async (transaction) => {
        await transaction.cmsPage.deleteMany({ where: { key: { in: [...SEEDED_CMS_PAGE_KEYS] } } });

        expect(await seedCmsPages(transaction)).toBe(7);
        expect(await seedCmsPages(transaction)).toBe(0);
        const seeded = await transaction.cmsPage.findMany({ where: { key: { in: [...SEEDED_CMS_PAGE_KEYS] } }, orderBy: { key: "asc" } });
        expect(seeded.map((page) => [page.key, page.title, page.published, page.sourceFormat])).toEqual([
          ["about", "About us", true, "markdown"],
          ["business-loan-terms", "Business Loan terms and conditions", true, "markdown"],
          ["complaints", "Complaints", true, "markdown"],
          ["cookies", "Cookies", true, "markdown"],
          ["faq", "Frequently asked questions", true, "markdown"],
          ["privacy", "Privacy notice", true, "markdown"],
          ["terms", "Terms of use", true, "markdown"],
        ]);
        const complaints = seeded.find((page) => page.key === "complaints")!;
        expect(complaints.html).toContain("<strong>8 weeks</strong>");
        expect(complaints.html).toContain("Financial Ombudsman Service");
        const cookies = seeded.find((page) => page.key === "cookies")!;
        expect(cookies.html).toContain("<strong>Analytics</strong>");
        expect(cookies.html).toContain("<strong>Marketing</strong>");

        await savePage({ key: "about", title: "About (edited)", format: "html", source: "<p>Edited</p>" }, transaction);
        await setPublished("faq", false, transaction);
        await transaction.cmsPage.delete({ where: { key: "terms" } });
        expect(await seedCmsPages(transaction)).toBe(1);
        expect(await transaction.cmsPage.findUniqueOrThrow({ where: { key: "about" } })).toMatchObject({ title: "About (edited)", html: "<p>Edited</p>" });
        expect(await transaction.cmsPage.findUniqueOrThrow({ where: { key: "faq" } })).toMatchObject({ published: false });
        expect(await transaction.cmsPage.findUniqueOrThrow({ where: { key: "terms" } })).toMatchObject({ published: true, title: "Terms of use" });
        throw new Rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
  });
});
