// /contact — how to reach us, with the support chat (the support widget, spec 4.8) for quick questions.
import type { Metadata } from "next";
import { headers } from "next/headers";

export const metadata: Metadata = { title: "Contact us", description: "Ask a question, raise a complaint or talk to us about partnering." };

export default async function ContactPage() {
  // The widget's script needs this response's nonce to run under the page's Content-Security-Policy (proxy.ts).
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    <main className="page">
      <h1>Contact us</h1>
      <p className="lede">For a question about our products, open the support chat with the Help button at the bottom right of this page: it answers at once, day or night.</p>
      <h2>About your own loan or application</h2>
      <p>
        <a href="/account">Sign in to your account</a> to see your application, balance and payments. For your security we never
        discuss an account in the chat.
      </p>
      <h2>Complaints</h2>
      <p>
        If something has gone wrong, read <a href="/complaints">how to complain</a>: we acknowledge every complaint and tell you
        how long a reply will take.
      </p>
      <h2>Partners</h2>
      <p>
        To offer our finance in your product, start with <a href="/partners">partners and developers</a>.
      </p>
      <script src="/public/v1/support/widget.js" nonce={nonce} defer />
    </main>
  );
}
