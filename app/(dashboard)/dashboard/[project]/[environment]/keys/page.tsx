// GET /dashboard/{project}/{environment}/keys — the project's API keys in one environment (docs/dashboard.md): a
// table (prefix, last four, created, last used, status), Create key, Roll with an overlap and Revoke, each control
// shown only to a role that may use it. A secret just made is shown on this view only (lib/dashboard/shown-once.ts).
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import { z } from "zod";
import { dashboardMemberOrThrow } from "@/lib/dashboard/access";
import { listKeysForDashboard } from "@/lib/dashboard/keys";
import { dashboardKeyParamsSchema, dashboardParamsSchema } from "@/lib/dashboard/schemas";
import { MAX_ALLOWED_ORIGINS } from "@/lib/keys/schemas";
import { readPageValues } from "@/lib/wire/page-values";
import { openShownOnce, SHOWN_ONCE_COOKIE } from "@/lib/dashboard/shown-once";
import { dashboardView } from "@/lib/dashboard/view";
import { CSRF_COOKIE } from "@/lib/wire/csrf";
import { NewSecret } from "../../../_components/new-secret";
import { ErrorSummary, FieldError, refusalsOf, refusedFormOf, refusedFormMetadata, refusedAria } from "../../../_components/refused-form";
import { DashboardShell } from "../../../_components/shell";
import { when } from "../../../_components/when";
import { signedInOrRedirect } from "../../../_components/signed-in";
import "../../../../../(account)/account/account.css";
import "../../../dashboard.css";

export const dynamic = "force-dynamic";

type Props = { params: Promise<Record<string, string>>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return refusedFormMetadata("API keys", readPageValues(dashboardParamsSchema.shape, await params));
}

const FIELD_LABELS = { type: "Type of key", overlap_hours: "Overlap in hours", allowed_origins: "Allowed origins" };

/** The id of a refused form's field: Create key's type, a Roll form's overlap, a key's origins (its form's name). */
function refusedFieldId(form: string, field: string): string {
  if (field === "type") return "key-type";
  return form.startsWith("roll-") ? `overlap-${form.slice("roll-".length)}` : form;
}

/**
 * After a revoke, the key that was revoked (…/keys?revoked=key_…); after saving a key's allowed origins, that key
 * (?origins=key_…); after revoking every token, ?tokens=revoked.
 */
const keysPageQuery = { revoked: dashboardKeyParamsSchema.shape.id, origins: dashboardKeyParamsSchema.shape.id, tokens: z.literal("revoked") };

const STATUS_WORDS = { active: "Active", expired: "Expired", revoked: "Revoked" } as const;

export default async function KeysPage({ params, searchParams }: Props) {
  const { project, environment } = readPageValues(dashboardParamsSchema.shape, await params);
  if (!project || !environment) notFound();
  const address = { project, environment };
  const userId = await signedInOrRedirect(`/dashboard/${address.project}/${address.environment}/keys`);
  const view = await dashboardView({ userId, params: address });
  if (!view) notFound();
  const member = await dashboardMemberOrThrow({ userId, params: address, action: "read" });
  const keys = await listKeysForDashboard({ member });
  const jar = await cookies();
  const csrfToken = jar.get(CSRF_COOKIE)?.value ?? "";
  const shown = await openShownOnce(jar.get(SHOWN_ONCE_COOKIE)?.value, { userId, projectId: address.project, environment: address.environment });
  const { revoked, origins, tokens } = readPageValues(keysPageQuery, await searchParams);
  const publishableKeys = keys.filter((key) => key.type === "publishable" && key.status === "active");
  const refused = await refusedFormOf({ userId, ...address });
  const createRefused = refusalsOf(refused, "create-key");
  const base = `/dashboard/${address.project}/${address.environment}/keys`;
  const environmentWord = address.environment === "sandbox" ? "sandbox" : "live";
  return (
    <DashboardShell view={view} section="keys">
      <h1>API keys</h1>
      <ErrorSummary refused={refused} labels={FIELD_LABELS} fieldId={(field) => refusedFieldId(refused?.form ?? "", field)} />
      {shown?.kind === "key_created" || shown?.kind === "key_rolled" ? (
        <NewSecret heading={shown.kind === "key_created" ? "Your new key" : "Your rolled key's successor"} secret={shown.secret}>
          <p>Key id: {shown.objectId}</p>
          {shown.kind === "key_rolled" && shown.predecessorExpiresAt ? (
            <p>
              The old key {shown.predecessorId} keeps working until {when(shown.predecessorExpiresAt)}.
            </p>
          ) : null}
        </NewSecret>
      ) : null}
      {revoked ? (
        <p className="dashboard-panel" role="status">
          Key {revoked} is revoked: it no longer authenticates.
        </p>
      ) : null}
      {origins ? (
        <p className="dashboard-panel" role="status">
          Key {origins}&apos;s allowed origins are saved.
        </p>
      ) : null}
      {tokens ? (
        <p className="dashboard-panel" role="status">
          Every {environmentWord} access token issued until now is revoked. Your servers get new ones with their secret keys as usual.
        </p>
      ) : null}
      <p>Your {environmentWord} keys. A secret key is shown only once, when it is made; we keep a hash of it, so we cannot show it again.</p>
      {view.allowed.create_key ? (
        <form method="post" action={`${base}/create`} className="dashboard-form" noValidate>
          <input type="hidden" name="csrf_token" value={csrfToken} />
          <div>
            <label htmlFor="key-type">Type of key</label>
            <FieldError id="key-type-error" message={createRefused?.errors.type} />
            <select id="key-type" name="type" defaultValue="secret" {...refusedAria(createRefused?.errors.type, "key-type-error")}>
              <option value="secret">Secret (for your servers)</option>
              <option value="publishable">Publishable (for browsers)</option>
            </select>
          </div>
          <button type="submit" className="account-button">
            Create key
          </button>
        </form>
      ) : null}
      {keys.length === 0 ? (
        <p className="account-empty">No {environmentWord} keys yet.</p>
      ) : (
        <div className="account-table-region" role="region" aria-labelledby="keys-caption" tabIndex={0}>
          <table className="account-table dashboard-stacked">
            <caption id="keys-caption">Your {environmentWord} API keys, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
                {view.allowed.roll_key || view.allowed.revoke_key ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => {
                const rollRefused = refusalsOf(refused, `roll-${key.id}`);
                return (
                <tr key={key.id}>
                  <td>
                    <code>
                      {key.prefix}…{key.last4}
                    </code>
                    <br />
                    <span className="dashboard-muted">{key.id}</span>
                  </td>
                  <td data-label="Created">{when(key.created_at)}</td>
                  <td data-label="Last used">{when(key.last_used_at)}</td>
                  <td data-label="Status">
                    {STATUS_WORDS[key.status]}
                    {key.status === "active" && key.expires_at ? <> until {when(key.expires_at)}</> : null}
                  </td>
                  {view.allowed.roll_key || view.allowed.revoke_key ? (
                    <td>
                      {key.status === "active" ? (
                        <div className="dashboard-row-actions">
                          {view.allowed.roll_key && !key.expires_at ? (
                            <form method="post" action={`${base}/${key.id}/roll`} className="dashboard-form" noValidate>
                              <input type="hidden" name="csrf_token" value={csrfToken} />
                              <div>
                                <label htmlFor={`overlap-${key.id}`}>Overlap in hours</label>
                                <FieldError id={`overlap-${key.id}-error`} message={rollRefused?.errors.overlap_hours} />
                                <input
                                  id={`overlap-${key.id}`}
                                  name="overlap_hours"
                                  type="number"
                                  inputMode="numeric"
                                  min={0}
                                  max={168}
                                  defaultValue={rollRefused?.values.overlap_hours ?? 24}
                                  required
                                  {...refusedAria(rollRefused?.errors.overlap_hours, `overlap-${key.id}-error`)}
                                />
                              </div>
                              <button type="submit" className="account-button account-button-secondary">
                                Roll <span className="visually-hidden">key ending {key.last4}</span>
                              </button>
                            </form>
                          ) : null}
                          {view.allowed.revoke_key ? (
                            <a className="account-link" href={`${base}/${key.id}/revoke`}>
                              Revoke <span className="visually-hidden">key ending {key.last4}</span>
                            </a>
                          ) : null}
                        </div>
                      ) : null}
                    </td>
                  ) : null}
                </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {publishableKeys.length > 0 ? (
        <section aria-labelledby="origins-heading">
          <h2 id="origins-heading">Which pages may use your publishable keys</h2>
          {address.environment === "live" ? (
            <p>
              A live publishable key starts applications only from pages of its allowed origins: until you add one, it starts none. Write one origin a line, such
              as https://shop.example.com (https, no path).
            </p>
          ) : (
            <p>
              A publishable key with allowed origins starts applications only from pages of those origins; a sandbox key with none, from any page. Write one
              origin a line, such as https://shop.example.com (https, no path), or http://localhost:3000 while you build.
            </p>
          )}
          {publishableKeys.map((key) => {
            const originsRefused = refusalsOf(refused, `origins-${key.id}`);
            const originsError = originsRefused?.errors.allowed_origins;
            return view.allowed.set_key_origins ? (
              <form key={key.id} method="post" action={`${base}/${key.id}/origins`} className="dashboard-form dashboard-origins-form" noValidate>
                <input type="hidden" name="csrf_token" value={csrfToken} />
                <div>
                  <label htmlFor={`origins-${key.id}`}>
                    Allowed origins of {key.prefix}…{key.last4}
                  </label>
                  <p className="dashboard-muted" id={`origins-hint-${key.id}`}>
                    At most {MAX_ALLOWED_ORIGINS}; {address.environment === "live" ? "with none, no page may use the key." : "leave empty for any origin."}
                  </p>
                  <FieldError id={`origins-${key.id}-error`} message={originsError} />
                  <textarea
                    id={`origins-${key.id}`}
                    name="allowed_origins"
                    rows={3}
                    {...refusedAria(originsError, `origins-${key.id}-error`, `origins-hint-${key.id}`)}
                    defaultValue={originsRefused?.values.allowed_origins ?? (key.allowed_origins ?? []).join("\n")}
                  />
                </div>
                <button type="submit" className="account-button account-button-secondary">
                  Save origins <span className="visually-hidden">of key ending {key.last4}</span>
                </button>
              </form>
            ) : (
              <p key={key.id}>
                <code>
                  {key.prefix}…{key.last4}
                </code>
                : {key.allowed_origins?.length ? key.allowed_origins.join(", ") : address.environment === "live" ? "no origin yet" : "any origin"}
              </p>
            );
          })}
        </section>
      ) : null}
      {view.allowed.revoke_tokens ? (
        <section aria-labelledby="tokens-heading">
          <h2 id="tokens-heading">Access tokens</h2>
          <p>
            If a token may have leaked, revoke every {environmentWord} access token issued until now. Keys keep working, so your servers simply get new tokens.
          </p>
          <a className="account-link" href={`${base}/revoke-tokens`}>
            Revoke all access tokens
          </a>
        </section>
      ) : null}
    </DashboardShell>
  );
}
