// GET /dashboard/{project}/{environment}/webhooks/{id} — one webhook endpoint (docs/dashboard.md, "Webhooks"): its
// details and delivery attempts (event, attempt, time, status or error, latency, the response's first bytes), and,
// for a role that may manage webhooks, Replay per event, Disable or Enable, Roll secret, Recover failed since and
// Edit. A signing secret just made is shown on this view only (lib/dashboard/shown-once.ts).
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import { z } from "zod";
import { dashboardMemberOrThrow } from "@/lib/dashboard/access";
import { dashboardWebhookParamsSchema, replayEventFormSchema } from "@/lib/dashboard/schemas";
import { openShownOnce, SHOWN_ONCE_COOKIE } from "@/lib/dashboard/shown-once";
import { toUkDateTimeInput } from "@/lib/dashboard/uk-time";
import { dashboardView } from "@/lib/dashboard/view";
import { webhookEndpointForDashboard } from "@/lib/dashboard/webhooks";
import { clock } from "@/lib/clock";
import { ApiError } from "@/lib/errors";
import { CSRF_COOKIE } from "@/lib/wire/csrf";
import { readPageValues } from "@/lib/wire/page-values";
import { requestString } from "@/lib/wire/request-string";
import { NewSecret } from "../../../../_components/new-secret";
import { ErrorSummary, FieldError, refusalsOf, refusedFormOf, refusedFormMetadata, refusedAria } from "../../../../_components/refused-form";
import { DashboardShell } from "../../../../_components/shell";
import { signedInOrRedirect } from "../../../../_components/signed-in";
import { when, whenToTheSecond } from "../../../../_components/when";
import { EndpointFields, ENDPOINT_FIELD_LABELS, endpointFieldId, eventsWords, refusedEndpointValues, statusWords } from "../endpoint-words";
import "../../../../../../(account)/account/account.css";
import "../../../../dashboard.css";

export const dynamic = "force-dynamic";

type Props = { params: Promise<Record<string, string>>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** What the last post did: …?changed=disabled, …?replayed=evt_…, …?recovered=3. */
const endpointPageQuery = {
  changed: z.enum(["updated", "disabled", "enabled"]),
  replayed: replayEventFormSchema.shape.event_id,
  recovered: requestString().regex(/^\d{1,6}$/).transform(Number),
};

const CHANGED_WORDS = { updated: "Your changes are saved.", disabled: "The endpoint is disabled: nothing is sent to it.", enabled: "The endpoint is enabled." } as const;

const FIELD_LABELS = { ...ENDPOINT_FIELD_LABELS, overlap_hours: "Overlap in hours", since: "Recover failed deliveries since" };
const FIELD_IDS: Record<string, (field: string) => string> = {
  "edit-endpoint": (field) => endpointFieldId("edit-endpoint", field),
  "roll-secret": () => "roll-overlap",
  recover: () => "recover-since",
};

/** The first bytes of a response body that the attempts table shows. */
const RESPONSE_SHOWN = 120;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return refusedFormMetadata("Webhook endpoint", readPageValues(dashboardWebhookParamsSchema.shape, await params), (refused) => Boolean(FIELD_IDS[refused.form]));
}

export default async function WebhookEndpointPage({ params, searchParams }: Props) {
  const { project, environment, id } = readPageValues(dashboardWebhookParamsSchema.shape, await params);
  if (!project || !environment || !id) notFound();
  const address = { project, environment };
  const base = `/dashboard/${project}/${environment}/webhooks`;
  const here = `${base}/${id}`;
  const userId = await signedInOrRedirect(here);
  const view = await dashboardView({ userId, params: address });
  if (!view) notFound();
  const member = await dashboardMemberOrThrow({ userId, params: address, action: "read" });
  const { endpoint, attempts } = await webhookEndpointForDashboard({ member, id }).catch((error: unknown) => {
    if (error instanceof ApiError) notFound();
    throw error;
  });
  const jar = await cookies();
  const csrfToken = jar.get(CSRF_COOKIE)?.value ?? "";
  const shown = await openShownOnce(jar.get(SHOWN_ONCE_COOKIE)?.value, { userId, projectId: project, environment });
  const newSecret = shown && shown.objectId === endpoint.id && (shown.kind === "webhook_endpoint_created" || shown.kind === "webhook_secret_rolled") ? shown : null;
  const opened = await refusedFormOf({ userId, ...address });
  const refused = opened && FIELD_IDS[opened.form] ? opened : null;
  const editRefused = refusalsOf(refused, "edit-endpoint");
  const rollRefused = refusalsOf(refused, "roll-secret");
  const recoverRefused = refusalsOf(refused, "recover");
  const { changed, replayed, recovered } = readPageValues(endpointPageQuery, await searchParams);
  const manage = view.allowed.manage_webhooks;
  const enabled = endpoint.status === "enabled";
  // One Replay per event: on its newest attempt.
  const replayable = new Set(attempts.filter((attempt, index) => attempts.findIndex((other) => other.event_id === attempt.event_id) === index).map((attempt) => attempt.id));
  const csrf = <input type="hidden" name="csrf_token" value={csrfToken} />;
  return (
    <DashboardShell view={view} section="webhooks">
      <p>
        <a className="account-link" href={base}>
          All webhook endpoints
        </a>
      </p>
      <h1>Webhook endpoint</h1>
      <p className="dashboard-url">
        <code>{endpoint.url}</code>
      </p>
      <ErrorSummary refused={refused} labels={FIELD_LABELS} fieldId={refused ? FIELD_IDS[refused.form]! : () => ""} />
      {newSecret ? (
        <NewSecret heading={newSecret.kind === "webhook_endpoint_created" ? "Your endpoint's signing secret" : "Your endpoint's new signing secret"} secret={newSecret.secret}>
          <p>Use it to check the Service-Signature header of each delivery.</p>
          {newSecret.predecessorExpiresAt ? <p>The old secret also signs deliveries until {when(newSecret.predecessorExpiresAt)}.</p> : null}
        </NewSecret>
      ) : null}
      {changed || replayed || recovered !== undefined ? (
        <p className="dashboard-panel" role="status">
          {changed ? CHANGED_WORDS[changed] : null}
          {replayed ? `Event ${replayed} is queued to be sent to this endpoint again.` : null}
          {recovered !== undefined ? (recovered === 1 ? "1 failed delivery is queued to be sent again." : `${recovered} failed deliveries are queued to be sent again.`) : null}
        </p>
      ) : null}
      <dl className="dashboard-details">
        <div>
          <dt>Status</dt>
          <dd>{statusWords(endpoint)}</dd>
        </div>
        <div>
          <dt>Id</dt>
          <dd>{endpoint.id}</dd>
        </div>
        <div>
          <dt>Events</dt>
          <dd>{eventsWords(endpoint.enabled_events)}</dd>
        </div>
        <div>
          <dt>Description</dt>
          <dd>{endpoint.description ?? "None"}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{when(endpoint.created_at)}</dd>
        </div>
        {endpoint.previous_secret_expires_at ? (
          <div>
            <dt>Old secret signs until</dt>
            <dd>{when(endpoint.previous_secret_expires_at)}</dd>
          </div>
        ) : null}
      </dl>

      <h2 id="attempts-heading">Delivery attempts</h2>
      {manage && !enabled ? <p>Enable the endpoint to replay events or recover failed deliveries.</p> : null}
      {attempts.length === 0 ? (
        <p className="account-empty">No delivery attempts yet.</p>
      ) : (
        <div className="account-table-region" role="region" aria-labelledby="attempts-caption" tabIndex={0}>
          <table className="account-table dashboard-stacked">
            <caption id="attempts-caption">{attempts.length === 1 ? "The latest attempt" : `The latest ${attempts.length} attempts, newest first`}</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Attempt</th>
                <th scope="col">Time</th>
                <th scope="col">Result</th>
                <th scope="col">Latency</th>
                <th scope="col">Response</th>
                {manage && enabled ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {attempts.map((attempt) => (
                <tr key={attempt.id}>
                  <td>
                    <code>{attempt.event_type}</code>
                    <br />
                    <span className="dashboard-muted">{attempt.event_id}</span>
                  </td>
                  <td data-label="Attempt">
                    {attempt.number}
                    {attempt.replay ? " (replay)" : ""}
                  </td>
                  <td data-label="Time">{whenToTheSecond(attempt.attempted_at)}</td>
                  <td data-label="Result">
                    {attempt.succeeded ? "Delivered" : "Failed"}: {attempt.response_status !== null ? `HTTP ${attempt.response_status}` : (attempt.error ?? "no response")}
                  </td>
                  <td data-label="Latency">{attempt.latency_ms} ms</td>
                  <td data-label="Response">
                    {attempt.response_excerpt ? <code className="dashboard-excerpt">{attempt.response_excerpt.slice(0, RESPONSE_SHOWN)}</code> : <span className="dashboard-muted">Empty</span>}
                  </td>
                  {manage && enabled ? (
                    <td>
                      {replayable.has(attempt.id) ? (
                        <form method="post" action={`${here}/replay`} className="dashboard-form">
                          {csrf}
                          <input type="hidden" name="event_id" value={attempt.event_id} />
                          <button type="submit" className="account-button account-button-secondary">
                            Replay <span className="visually-hidden">event {attempt.event_id}</span>
                          </button>
                        </form>
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {manage ? (
        <>
          {enabled ? (
            <section aria-labelledby="recover-heading">
              <h2 id="recover-heading">Recover failed deliveries</h2>
              <p>Send again every event whose delivery to this endpoint failed since the time you give (UK time, at most 30 days ago).</p>
              <form method="post" action={`${here}/recover`} className="dashboard-form" noValidate>
                {csrf}
                <div>
                  <label htmlFor="recover-since">Recover failed deliveries since</label>
                  <FieldError id="recover-since-error" message={recoverRefused?.errors.since} />
                  <input
                    id="recover-since"
                    name="since"
                    type="datetime-local"
                    defaultValue={recoverRefused?.values.since ?? toUkDateTimeInput(new Date(clock.now().getTime() - 24 * 3_600_000))}
                    {...refusedAria(recoverRefused?.errors.since, "recover-since-error")}
                  />
                </div>
                <button type="submit" className="account-button account-button-secondary">
                  Recover failed deliveries
                </button>
              </form>
            </section>
          ) : null}

          <section aria-labelledby="state-heading">
            <h2 id="state-heading">{enabled ? "Disable this endpoint" : "Enable this endpoint"}</h2>
            <p>
              {enabled
                ? "Nothing is sent to a disabled endpoint; deliveries waiting for a retry stop. Enable it again at any time, then recover what it missed."
                : "Deliveries start again with the next event. Events it missed while disabled are not sent again: recover or replay them."}
            </p>
            <form method="post" action={`${here}/${enabled ? "disable" : "enable"}`} className="dashboard-form">
              {csrf}
              <button type="submit" className={`account-button${enabled ? " dashboard-danger" : ""}`}>
                {enabled ? "Disable endpoint" : "Enable endpoint"}
              </button>
            </form>
          </section>

          <section aria-labelledby="roll-heading">
            <h2 id="roll-heading">Roll the signing secret</h2>
            <p>A new secret signs every delivery from now on; the old one also signs them for the overlap, so your receiver can switch over.</p>
            <form method="post" action={`${here}/roll`} className="dashboard-form" noValidate>
              {csrf}
              <div>
                <label htmlFor="roll-overlap">Overlap in hours</label>
                <FieldError id="roll-overlap-error" message={rollRefused?.errors.overlap_hours} />
                <input
                  id="roll-overlap"
                  name="overlap_hours"
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={168}
                  defaultValue={rollRefused?.values.overlap_hours ?? 24}
                  {...refusedAria(rollRefused?.errors.overlap_hours, "roll-overlap-error")}
                />
              </div>
              <button type="submit" className="account-button account-button-secondary">
                Roll secret
              </button>
            </form>
          </section>

          <section aria-labelledby="edit-heading">
            <h2 id="edit-heading">Edit this endpoint</h2>
            <form method="post" action={`${here}/update`} className="dashboard-form dashboard-form-stacked" noValidate>
              {csrf}
              <EndpointFields
                form="edit-endpoint"
                values={editRefused ? refusedEndpointValues(editRefused.values) : { url: endpoint.url, description: endpoint.description ?? "", enabledEvents: endpoint.enabled_events }}
                errors={editRefused?.errors ?? {}}
              />
              <button type="submit" className="account-button">
                Save changes
              </button>
            </form>
          </section>
        </>
      ) : null}
    </DashboardShell>
  );
}
