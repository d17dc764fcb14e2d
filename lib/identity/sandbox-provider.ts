// The sandbox's identity provider: deterministic, no network (docs/sandbox.md, "Identity checks"). A person
// whose last name is exactly `Review` is referred to manual review; everyone else is verified.
import type { IdentityCheckAnswer, IdentityCheckRequest, IdentityProvider } from "./provider";

export const SANDBOX_REVIEW_LAST_NAME = "Review";

export class SandboxIdentityProvider implements IdentityProvider {
  readonly name = "sandbox" as const;

  async check({ people }: IdentityCheckRequest): Promise<IdentityCheckAnswer> {
    return {
      providerReference: null,
      results: people.map((person) => (person.last_name === SANDBOX_REVIEW_LAST_NAME ? "review_required" : "verified")),
    };
  }
}
