// GET /dashboard/{project}/{environment}/webhooks — the environment's webhook endpoints (docs/dashboard.md,
// "Webhooks"): a table (status and why if disabled, URL, events, description, created), each linking to its own
// page, and the Add endpoint form for a role that may manage webhooks.
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import { dashboardMemberOrThrow } from "@/lib/dashboard/access";
import { dashboardParamsSchema } from "@/lib/dashboard/schemas";
import { dashboardView } from "@/lib/dashboard/view";
import { listWebhookEndpointsForDashboard } from "@/lib/dashboard/webhooks";
import { CSRF_COOKIE } from "@/lib/wire/csrf";
import { readPageValues } from "@/lib/wire/page-values";
import { ErrorSummary, refusalsOf, refusedFormOf, refusedFormMetadata } from "../../../_components/refused-form";
import { DashboardShell } from "../../../_components/shell";
import { signedInOrRedirect } from "../../../_components/signed-in";
import { when } from "../../../_components/when";
import { EndpointFields, ENDPOINT_FIELD_LABELS, endpointFieldId, eventsWords, refusedEndpointValues, statusWords } from "./endpoint-words";
import "../../../../../(account)/account/account.css";
import "../../../dashboard.css";

export const dynamic = "force-dynamic";

type Props = { params: Promise<Record<string, string>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return refusedFormMetadata("Webhooks", readPageValues(dashboardParamsSchema.shape, await params), (refused) => refused.form === "create-endpoint");
}

export default async function WebhooksPage({ params }: Props) {
  const { project, environment } = readPageValues(dashboardParamsSchema.shape, await params);
  if (!project || !environment) notFound();
  const address = { project, environment };
  const base = `/dashboard/${project}/${environment}/webhooks`;
  const userId = await signedInOrRedirect(base);
  const view = await dashboardView({ userId, params: address });
  if (!view) notFound();
  const member = await dashboardMemberOrThrow({ userId, params: address, action: "read" });
  const endpoints = await listWebhookEndpointsForDashboard({ member });
  const csrfToken = (await cookies()).get(CSRF_COOKIE)?.value ?? "";
  const refused = await refusedFormOf({ userId, ...address });
  const createRefused = refusalsOf(refused, "create-endpoint");
  const environmentWord = environment === "sandbox" ? "sandbox" : "live";
  return (
    <DashboardShell view={view} section="webhooks">
      <h1>Webhooks</h1>
      <ErrorSummary refused={createRefused ? refused : null} labels={ENDPOINT_FIELD_LABELS} fieldId={(field) => endpointFieldId("create-endpoint", field)} />
      <p>
        Your {environmentWord} webhook endpoints: where we send events as they happen, each signed with the endpoint&apos;s secret. Open an endpoint
        to see its delivery attempts.
      </p>
      {endpoints.length === 0 ? (
        <p className="account-empty">No {environmentWord} webhook endpoints yet.</p>
      ) : (
        <div className="account-table-region" role="region" aria-labelledby="endpoints-caption" tabIndex={0}>
          <table className="account-table dashboard-stacked">
            <caption id="endpoints-caption">Your {environmentWord} webhook endpoints, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">Status</th>
                <th scope="col">Events</th>
                <th scope="col">Description</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.map((endpoint) => (
                <tr key={endpoint.id}>
                  <td>
                    <a className="account-link dashboard-url" href={`${base}/${endpoint.id}`}>
                      {endpoint.url}
                    </a>
                    <br />
                    <span className="dashboard-muted">{endpoint.id}</span>
                  </td>
                  <td data-label="Status">{statusWords(endpoint)}</td>
                  <td data-label="Events">{eventsWords(endpoint.enabled_events)}</td>
                  <td data-label="Description">{endpoint.description ?? "None"}</td>
                  <td data-label="Created">{when(endpoint.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {view.allowed.manage_webhooks ? (
        <section aria-labelledby="add-endpoint-heading">
          <h2 id="add-endpoint-heading">Add an endpoint</h2>
          <form method="post" action={`${base}/create`} className="dashboard-form dashboard-form-stacked" noValidate>
            <input type="hidden" name="csrf_token" value={csrfToken} />
            <EndpointFields
              form="create-endpoint"
              values={createRefused ? refusedEndpointValues(createRefused.values) : { url: "", description: "", enabledEvents: [] }}
              errors={createRefused?.errors ?? {}}
            />
            <button type="submit" className="account-button">
              Add endpoint
            </button>
          </form>
        </section>
      ) : null}
    </DashboardShell>
  );
}
