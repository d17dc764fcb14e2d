// GET /dashboard/sign-in — where the dashboard sends someone not signed in: one button that starts the sign-in at
// our provider (/api/account/sign-in, the borrower area's too) and brings them back to the page they asked for.
import type { Metadata } from "next";
import { z } from "zod";
import { appSignInPageQuerySchema, appSignInReturnPath } from "@/lib/oidc/app-client";
import { readPageValues } from "@/lib/wire/page-values";
import { requestString } from "@/lib/wire/request-string";
import "../../../(account)/account/account.css";

export const dynamic = "force-dynamic";

const pageQuery = { ...appSignInPageQuerySchema.shape, return_to: requestString().max(200) } satisfies z.ZodRawShape;

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const { error } = readPageValues(pageQuery, await searchParams);
  return { title: `${error ? "Error: " : ""}Sign in to the dashboard`, robots: { index: false, follow: false } };
}

export default async function DashboardSignInPage({ searchParams }: Props) {
  const { error, return_to } = readPageValues(pageQuery, await searchParams);
  const returnTo = appSignInReturnPath(return_to);
  return (
    <main className="account-page">
      {error ? (
        <div className="account-card account-status-attention" role="alert">
          <h2>Sign in did not work</h2>
          <p>Something went wrong while signing you in. Try again; if it keeps happening, contact us.</p>
        </div>
      ) : null}
      <h1>Sign in to the dashboard</h1>
      <p className="lede">Manage your project&apos;s API keys, in the sandbox and live.</p>
      <form method="post" action="/api/account/sign-in">
        <input type="hidden" name="return_to" value={returnTo.startsWith("/dashboard") ? returnTo : "/dashboard"} />
        <button type="submit" className="account-button">
          Sign in
        </button>
      </form>
    </main>
  );
}
