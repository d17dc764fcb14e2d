// GET /account/signed-out — where the sign-in provider returns a person once the borrower area's sign-out has ended
// both sessions (theirs here and theirs at the provider).
import type { Metadata } from "next";
import "../account.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "You have signed out", robots: { index: false, follow: false } };

export default function SignedOutPage() {
  return (
    <main className="account-page">
      <h1>You have signed out</h1>
      <p className="lede">You are signed out of your business loans and of your sign-in account.</p>
      <p>
        <a className="account-link" href="/account/sign-in">
          Sign in again
        </a>
      </p>
    </main>
  );
}
