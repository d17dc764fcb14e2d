// /how-to-apply — the steps of the hosted application journey, from the first question to the offer.
import type { Metadata } from "next";

export const metadata: Metadata = { title: "How to apply", description: "Apply online in a few minutes: the steps, what you need, and what happens next." };

export default function HowToApplyPage() {
  return (
    <main className="page">
      <h1>How to apply</h1>
      <p className="lede">Applying takes about ten minutes online, directly with us or through one of our partners. Nothing is owed until you accept an offer.</p>
      <h2>Before you start, have ready</h2>
      <ul>
        <li>the company&apos;s registration number from Companies House (8 characters, such as 01234567 or SC123456)</li>
        <li>how much you want to borrow and for how long</li>
        <li>the online banking login for the business bank account</li>
        <li>an email address we can reach you on</li>
      </ul>
      <ol className="steps">
        <li>
          <h2>Start your application</h2>
          <p>
            Tell us the company number, the amount, the term and your email on the <a href="/apply">apply page</a>. We take you
            into our secure application journey.
          </p>
        </li>
        <li>
          <h2>Tell us about you and the company</h2>
          <p>Confirm you are a director (or, for an LLP, a designated member) and check the details we find at Companies House.</p>
        </li>
        <li>
          <h2>Connect the business bank account</h2>
          <p>Through open banking, read-only, so we can check what the company can afford. We never see your login.</p>
        </li>
        <li>
          <h2>We make our checks</h2>
          <p>We verify your identity and, with your consent, search the business credit file. Most decisions take minutes.</p>
        </li>
        <li>
          <h2>Read your offer</h2>
          <p>The offer shows every payment and the total cost. Accept it, or walk away: nothing is owed before you accept.</p>
        </li>
      </ol>
      <p>
        Already applied? <a href="/account">Sign in</a> to see your application, balance and payments.
      </p>
      <p className="actions">
        <a className="button" href="/apply">
          Start your application
        </a>
      </p>
    </main>
  );
}
