// GET /sso/interaction/{uid}: the sign-in provider's pages (spec 4.10, docs/sign-in.md): the sign-in form, or the
// consent screen once signed in. Plain HTML forms (no JavaScript needed) posting to the provider's mount
// (lib/oidc/interactions.ts), which answers 303. The interaction is read from the provider's table, never through
// oidc-provider itself. An expired ticket never reaches here: proxy.ts answers it with 401 sso_ticket_expired.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { interactionPageParamsSchema, interactionPageQuerySchema, interactionView, type InteractionView } from "@/lib/oidc/interaction-view";
import { readPageValues } from "@/lib/wire/page-values";
import "./sign-in.css";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ uid: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };
type ActiveView = Exclude<InteractionView, { state: "expired" }>;

async function viewOf(params: Props["params"]): Promise<InteractionView | null> {
  const { uid } = readPageValues(interactionPageParamsSchema.shape, await params);
  return uid ? interactionView(uid) : null;
}

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const view = await viewOf(params);
  const { error } = readPageValues(interactionPageQuerySchema.shape, await searchParams);
  const title = !view ? "Page not found" : view.state === "consent" ? "Allow access to your details" : view.state === "expired" ? "Sign in took too long" : "Sign in";
  return { title: `${error && view?.state === "login" ? "Error: " : ""}${title}`, robots: { index: false, follow: false }, referrer: "same-origin" };
}

function SignInForm({ view, failed }: { view: ActiveView; failed: boolean }) {
  return (
    <>
      {failed ? (
        <div className="sign-in-error-summary" role="alert" aria-labelledby="error-summary-title" tabIndex={-1}>
          <h2 id="error-summary-title">There is a problem</h2>
          <p>
            <a href="#email">The email address or password is not right. Check them and try again.</a>
          </p>
        </div>
      ) : null}
      <h1>Sign in</h1>
      <p className="lede">to continue to {view.clientName}</p>
      <form method="post" action={view.action} noValidate>
        <div className={failed ? "sign-in-field sign-in-field-error" : "sign-in-field"}>
          <label htmlFor="email">Email</label>
          <input id="email" name="email" type="email" autoComplete="email" spellCheck={false} required aria-describedby={failed ? "credentials-error" : undefined} />
        </div>
        <div className={failed ? "sign-in-field sign-in-field-error" : "sign-in-field"}>
          <label htmlFor="password">Password</label>
          {failed ? (
            <p className="sign-in-error" id="credentials-error">
              The email address or password is not right
            </p>
          ) : null}
          <input id="password" name="password" type="password" autoComplete="current-password" required aria-describedby={failed ? "credentials-error" : undefined} />
        </div>
        <button className="sign-in-button" type="submit">
          Sign in
        </button>
      </form>
    </>
  );
}

function Consent({ view }: { view: ActiveView }) {
  return (
    <>
      <h1>Allow {view.clientName} to access your details?</h1>
      <p className="lede">{view.clientName} is asking to:</p>
      <ul className="sign-in-scopes">
        {view.scopeDescriptions.map((description) => (
          <li key={description}>{description}</li>
        ))}
      </ul>
      <p>You can stop sharing at any time by contacting us.</p>
      <form method="post" action={view.action}>
        <div className="sign-in-actions">
          <button className="sign-in-button" type="submit" name="decision" value="allow">
            Allow
          </button>
          <button className="sign-in-button sign-in-button-secondary" type="submit" name="decision" value="deny">
            Deny
          </button>
        </div>
      </form>
    </>
  );
}

export default async function SignInInteractionPage({ params, searchParams }: Props) {
  const view = await viewOf(params);
  if (!view) notFound();
  const { error } = readPageValues(interactionPageQuerySchema.shape, await searchParams);
  return (
    <main className="page sign-in">
      <p className="sign-in-eyebrow">Lending Platform · Sign in</p>
      {view.state === "expired" ? (
        <>
          <h1>Sign in took too long</h1>
          <p className="lede">For your security, you have 2 minutes to sign in. Go back to the service you came from and start again.</p>
        </>
      ) : view.state === "consent" ? (
        <Consent view={view} />
      ) : (
        <SignInForm view={view} failed={error === "credentials"} />
      )}
    </main>
  );
}
