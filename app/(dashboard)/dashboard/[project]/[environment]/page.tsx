// GET /dashboard/{project}/{environment} — a project's first section, its API keys.
import { notFound, redirect } from "next/navigation";
import { dashboardParamsSchema } from "@/lib/dashboard/schemas";
import { readPageValues } from "@/lib/wire/page-values";

export const dynamic = "force-dynamic";

export default async function DashboardProjectPage({ params }: { params: Promise<Record<string, string>> }) {
  const { project, environment } = readPageValues(dashboardParamsSchema.shape, await params);
  if (!project || !environment) notFound();
  redirect(`/dashboard/${project}/${environment}/keys`);
}
