// /v1/demo on JS_URL — apply.js at work (docs/apply-js.md): a pretend partner page that opens the widget with the
// demo project's sandbox publishable key, shows what the callbacks receive, and the snippet that does it. Back
// from the whole-window journey of a phone, it shows the application_id the return address carries.
import type { Metadata } from "next";
import { demoPublishableKey, demoQuerySchema } from "@/lib/apply-widget/demo";
import { readPageValues } from "@/lib/wire/page-values";
import { config } from "@/lib/env";
import { DemoLauncher } from "./demo-launcher";
import "./demo.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "apply.js demo", description: "Start a sandbox business-finance application from a partner's page with apply.js." };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ApplyJsDemo({ searchParams }: Props) {
  const returnedId = readPageValues(demoQuerySchema.shape, await searchParams).application_id ?? null;
  const publishableKey = await demoPublishableKey();
  const scriptUrl = `${config().JS_URL}/v1/apply.js`;
  return (
    <div className="branded-frame demo">
      <header className="branded-header">
        <p className="branded-name">Lending Platform</p>
        <p className="branded-tagline">apply.js demo · sandbox</p>
      </header>
      <main>
        <h1>Offer business finance on your own page</h1>
        <p className="lede">
          This page stands in for a partner&apos;s website. Press the button and the application opens over the page, as it would on yours. It runs in the sandbox: no
          real company, person or money is involved.
        </p>

        {returnedId ? (
          <p className="demo-notice" role="status">
            Welcome back from application <code>{returnedId}</code>: the journey sent you here with <code>application_id</code> in the address. A partner&apos;s
            server would now ask the API how it ended.
          </p>
        ) : null}

        <section className="demo-card" aria-labelledby="try-heading">
          <h2 id="try-heading">Try it</h2>
          {publishableKey ? (
            <DemoLauncher publishableKey={publishableKey} scriptUrl={scriptUrl} />
          ) : (
            <p className="demo-notice">
              The demo project is not set up on this server yet. Start the platform with <code>npm run dev</code>, or run <code>npm run cli -- seed</code>, then
              reload this page.
            </p>
          )}
        </section>

        <section aria-labelledby="sandbox-heading">
          <h2 id="sandbox-heading">What to try in the sandbox</h2>
          <ul>
            <li>
              Company <code>12990042</code> is approved: accept the offer and the loan is funded at once.
            </li>
            <li>
              Company <code>12990002</code> is declined: the applicant sees why and what to do next.
            </li>
            <li>
              Give the last name <strong>Review</strong> at &ldquo;About you&rdquo; and an underwriter is asked to look.
            </li>
            <li>On a phone the application takes the whole window and comes back here when it is done.</li>
          </ul>
        </section>

        <section aria-labelledby="embed-heading">
          <h2 id="embed-heading">Add it to your site</h2>
          <p>Load the script once, then call it from a button. Use your own publishable key: it is safe in a web page and can only start applications.</p>
          <pre className="demo-code" tabIndex={0} aria-label="Embedding snippet">
            <code>{snippet(scriptUrl)}</code>
          </pre>
          <p>
            <code>onComplete</code> runs when the applicant has accepted an offer; confirm it from your server with <code>GET /partner/v1/applications/&#123;id&#125;</code>{" "}
            or the <code>application.funded</code> webhook. The options, the phone behaviour and the Content-Security-Policy your page needs are in{" "}
            <code>docs/apply-js.md</code>.
          </p>
        </section>
      </main>
    </div>
  );
}

function snippet(scriptUrl: string): string {
  return `<script src="${scriptUrl}" defer></script>
<button type="button" id="apply">Apply for finance</button>
<script>
  document.getElementById("apply").addEventListener("click", function () {
    LendingApply.open({
      publishableKey: "pk_live_…",
      amountPence: 2500000,
      termMonths: 12,
      companyNumber: "12345678",
      applicant: { first_name: "Ada", email: "ada@example.co.uk" },
      reference: "basket-42",
      onComplete: function (result) {
        // result.application_id: confirm it from your server
      }
    });
  });
</script>`;
}
