// A secret just made (a key's, a webhook endpoint's signing secret), on the one view after the post that made it
// (lib/dashboard/shown-once.ts): with a copy button and the warning that it will not be shown again.
import type { ReactNode } from "react";
import { CopyButton } from "./copy-button";

export function NewSecret({ heading, secret, children }: { heading: string; secret: string; children?: ReactNode }) {
  return (
    <section className="dashboard-panel dashboard-panel-warning" aria-labelledby="new-secret-heading">
      <h2 id="new-secret-heading">{heading}</h2>
      <p>
        <strong>Copy this secret now. It will not be shown again:</strong> we keep only a hash of it.
      </p>
      <code className="dashboard-secret" data-testid="new-secret">
        {secret}
      </code>
      <CopyButton value={secret} label="Copy secret" />
      {children}
    </section>
  );
}
