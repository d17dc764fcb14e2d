// GET /account/signed-out — where the sign-in provider returns a person once the sign-out of the borrower area or
// the partner dashboard (one sign-in for both) has ended both sessions (theirs here and theirs at the provider).
import type { Metadata } from "next";
import "../account.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "You have signed out", robots: { index: false, follow: false } };

export default function SignedOutPage() {
  return (
    <main className="account-page">
      <h1>You have signed out</h1>
      <p className="lede">You are signed out of your business loans, the partner dashboard and your sign-in account.</p>
      <ul>
        <li>
          <a className="account-link" href="/account/sign-in">
            Sign in to your business loans
          </a>
        </li>
        <li>
          <a className="account-link" href="/dashboard/sign-in">
            Sign in to the partner dashboard
          </a>
        </li>
      </ul>
    </main>
  );
}
