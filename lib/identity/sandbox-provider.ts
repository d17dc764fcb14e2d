// The sandbox's identity provider: deterministic, no network (docs/sandbox.md, "Identity checks"). A person
// whose last name is exactly `Review` is referred to manual review, one whose last name is exactly
// `Unverified` fails; everyone else is verified.
import type { IdentityCheckAnswer, IdentityCheckRequest, IdentityProvider } from "./provider";
import type { IdentityResult } from "./schemas";

export const SANDBOX_REVIEW_LAST_NAME = "Review";
export const SANDBOX_FAILED_LAST_NAME = "Unverified";

function sandboxResult(lastName: string): IdentityResult {
  if (lastName === SANDBOX_REVIEW_LAST_NAME) return "review_required";
  if (lastName === SANDBOX_FAILED_LAST_NAME) return "failed";
  return "verified";
}

export class SandboxIdentityProvider implements IdentityProvider {
  readonly name = "sandbox" as const;

  async check({ people }: IdentityCheckRequest): Promise<IdentityCheckAnswer> {
    return {
      providerReference: null,
      results: people.map((person) => sandboxResult(person.last_name)),
    };
  }
}
