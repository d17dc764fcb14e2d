// GET /account/sign-in — where the borrower area sends a person who is not signed in (and where next-auth sends one
// whose sign-in failed, with `error`): one button that starts the sign-in at our provider (/api/account/sign-in).
import type { Metadata } from "next";
import { appSignInPageQuerySchema } from "@/lib/oidc/app-client";
import { readPageValues } from "@/lib/wire/page-values";
import "../account.css";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const { error } = readPageValues(appSignInPageQuerySchema.shape, await searchParams);
  return { title: `${error ? "Error: " : ""}Sign in to your business loans`, robots: { index: false, follow: false } };
}

export default async function SignInPage({ searchParams }: Props) {
  const { error } = readPageValues(appSignInPageQuerySchema.shape, await searchParams);
  return (
    <main className="account-page">
      {error ? (
        <div className="account-card account-status-attention" role="alert">
          <h2>Sign in did not work</h2>
          <p>Something went wrong while signing you in. Try again; if it keeps happening, contact the lender who set up your sign-in.</p>
        </div>
      ) : null}
      <h1>Sign in to your business loans</h1>
      <p className="lede">See your company&apos;s loan accounts: what is left to repay, when the next instalment is due, and every payment.</p>
      <form method="post" action="/api/account/sign-in">
        <button type="submit" className="account-button">
          Sign in
        </button>
      </form>
    </main>
  );
}
