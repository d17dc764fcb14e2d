// Enquiries counted for the partner MCP tools' enquiry list: by form and department, never who sent them or what
// they wrote. Enquiries belong to the platform's own site, not to a project.
import { db } from "../db";

/** Enquiries sent since `since`, counted by form and department, in form then department order. */
export async function countEnquiriesByForm(since: Date): Promise<Array<{ form: string; dept: string; count: number }>> {
  const groups = await db().enquiry.groupBy({ by: ["form", "dept"], where: { createdAt: { gte: since } }, _count: { _all: true }, orderBy: [{ form: "asc" }, { dept: "asc" }] });
  return groups.map((group) => ({ form: group.form, dept: group.dept, count: group._count._all }));
}
