// The apply.js demo page's key (/v1/demo): the demo project's sandbox publishable key, which the seed keeps on the
// project (lib/seed/seed-demo.ts) because it is published; only while it still opens the widget.
import { z } from "zod";
import { clock } from "../clock";
import { db } from "../db";
import { requestString } from "../wire/request-string";
import { isIdOf } from "../ids";
import { hashSecret } from "../keys/secrets";

/** What the demo page reads from its address: the application the journey's return address names. */
export const demoQuerySchema = z.strictObject({ application_id: requestString().refine((value) => isIdOf("application", value)) });

export async function demoPublishableKey(): Promise<string | null> {
  const project = await db().project.findFirst({ where: { isDemo: true, demoPublishableKey: { not: null } }, orderBy: { id: "asc" }, select: { id: true, demoPublishableKey: true } });
  if (!project?.demoPublishableKey) return null;
  const key = await db().apiKey.findUnique({ where: { secretHash: hashSecret(project.demoPublishableKey) } });
  const usable = key?.projectId === project.id && key.type === "publishable" && key.environment === "sandbox" && key.status === "active" && (!key.expiresAt || key.expiresAt > clock.now());
  return usable ? project.demoPublishableKey : null;
}
