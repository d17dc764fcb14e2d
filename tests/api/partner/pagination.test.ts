// Cursor pagination (spec 4.11) over HTTP, through a probe list route on the real projects table.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "@/lib/db";
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { listQuerySchema, paginate } from "@/lib/wire/pagination";
import { newId } from "@/lib/ids";
import { createProject } from "@/lib/projects/create-project";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError } from "../../helpers/http";

const probeList = defineRoute("site", "/_probe_projects", {
  GET: endpoint({
    auth: { kind: "none" },
    query: listQuerySchema({ tag: z.string().min(1) }),
    handler: async ({ query, context }) => {
      const where = { name: { startsWith: query.tag } };
      return ok(
        await paginate({
          kind: "project",
          page: query,
          url: context.url.pathname,
          fetch: (window) => db().project.findMany({ where: { ...where, ...(window.id ? { id: window.id } : {}) }, orderBy: window.orderBy, take: window.take }),
          exists: async (id) => (await db().project.count({ where: { ...where, id } })) === 1,
          serialize: (row) => ({ id: row.id, name: row.name }),
        }),
      );
    },
  }),
});

let server: AppServer;
const tag = `page-${Date.now()}-`;
let ids: string[] = []; // oldest first

beforeAll(async () => {
  server = await startAppServer({ "/partner/v1/_probe_projects": probeList });
  for (let index = 0; index < 5; index += 1) {
    ids.push((await createProject(db(), { name: `${tag}${index}` })).project_id);
  }
});
afterAll(() => server?.close());

async function list(query: string) {
  const response = await fetch(`${server.url}/partner/v1/_probe_projects?${query}`);
  return { response, body: await response.clone().json() };
}
const newestFirst = () => [...ids].reverse();

describe("list envelope", () => {
  it("returns the list object newest first with url and no total", async () => {
    const { response, body } = await list(`tag=${tag}`);
    expect(response.status).toBe(200);
    expect(body).toEqual({
      object: "list",
      data: newestFirst().map((id, index) => ({ id, name: `${tag}${4 - index}` })),
      has_more: false,
      url: "/partner/v1/_probe_projects",
    });
  });

  it("returns an empty list when nothing matches", async () => {
    const { body } = await list(`tag=nothing-${tag}`);
    expect(body).toEqual({ object: "list", data: [], has_more: false, url: "/partner/v1/_probe_projects" });
  });
});

describe("paging", () => {
  it("says has_more exactly at a page boundary", async () => {
    expect((await list(`tag=${tag}&limit=5`)).body.has_more).toBe(false);
    expect((await list(`tag=${tag}&limit=4`)).body.has_more).toBe(true);
  });

  it("walks every object once with starting_after, keeping the filter", async () => {
    const seen: string[] = [];
    let cursor = "";
    for (let page = 0; page < 5; page += 1) {
      const { body } = await list(`tag=${tag}&limit=2${cursor ? `&starting_after=${cursor}` : ""}`);
      seen.push(...body.data.map((item: { id: string }) => item.id));
      if (!body.has_more) break;
      cursor = body.data.at(-1).id;
    }
    expect(seen).toEqual(newestFirst());
  });

  it("pages toward newer objects with ending_before, still newest first", async () => {
    const oldest = ids[0]!;
    const { body } = await list(`tag=${tag}&limit=2&ending_before=${oldest}`);
    expect(body.data.map((item: { id: string }) => item.id)).toEqual([ids[2], ids[1]]);
    expect(body.has_more).toBe(true);
    const last = await list(`tag=${tag}&limit=2&ending_before=${ids[2]}`);
    expect(last.body.data.map((item: { id: string }) => item.id)).toEqual([ids[4], ids[3]]);
    expect(last.body.has_more).toBe(false);
  });

  it("defaults the page size to 20", async () => {
    for (let index = 5; index < 22; index += 1) ids.push((await createProject(db(), { name: `${tag}${index}` })).project_id);
    const { body } = await list(`tag=${tag}`);
    expect(body.data).toHaveLength(20);
    expect(body.has_more).toBe(true);
    ids = ids.slice(0, 22);
  });
});

describe("bad pagination input", () => {
  it.each([
    ["0", "too_small"],
    ["101", "too_large"],
    ["abc", "invalid_type"],
    ["-1", "invalid_type"],
    ["2.5", "invalid_type"],
  ])("rejects limit=%s with 422 (%s)", async (limit, reason) => {
    const { response } = await list(`tag=${tag}&limit=${limit}`);
    const body = await expectApiError(response, 422, "validation_failed");
    expect(body.error.detail).toEqual([expect.objectContaining({ field: "limit", reason })]);
  });

  it("accepts the limits 1 and 100", async () => {
    expect((await list(`tag=${tag}&limit=1`)).body.data).toHaveLength(1);
    expect((await list(`tag=${tag}&limit=100`)).response.status).toBe(200);
  });

  it("rejects both cursors at once with 422", async () => {
    const { response } = await list(`tag=${tag}&starting_after=${ids[1]}&ending_before=${ids[0]}`);
    const body = await expectApiError(response, 422, "validation_failed");
    expect(body.error.detail).toEqual([expect.objectContaining({ field: "ending_before", reason: "mutually_exclusive" })]);
  });

  it("answers a cursor of another resource type with 404 not_found", async () => {
    const { response } = await list(`tag=${tag}&starting_after=${newId("application")}`);
    await expectApiError(response, 404, "not_found");
  });

  it("answers an unknown cursor of the right type with 404 not_found", async () => {
    const { response } = await list(`tag=${tag}&ending_before=${newId("project")}`);
    await expectApiError(response, 404, "not_found");
  });

  it("answers a cursor outside the filtered set with 404 not_found", async () => {
    const outsider = (await createProject(db(), { name: `other-${tag}` })).project_id;
    const { response } = await list(`tag=${tag}&starting_after=${outsider}`);
    await expectApiError(response, 404, "not_found");
  });

  it("rejects an empty cursor", async () => {
    const { response } = await list(`tag=${tag}&starting_after=`);
    await expectApiError(response, 422, "validation_failed");
  });
});
