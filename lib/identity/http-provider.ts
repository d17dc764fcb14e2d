// A live identity provider over HTTP, speaking the contract in docs/identity.md: each check is one POST of the
// company and the people to IDENTITY_PROVIDER_URL, answered with one result per person, in order. An adapter in
// front of a commercial KYC/AML service implements that contract.
import { z } from "zod";
import { requestString } from "../wire/request-string";
import { IdentityProviderUnavailableError, type IdentityCheckAnswer, type IdentityCheckRequest, type IdentityProvider } from "./provider";
import { IDENTITY_RESULTS } from "./schemas";

/** The part of `fetch` the provider uses. */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/**
 * The partner's request, or the applicant's page, waits for the answer (no transaction does: the check is
 * written once it arrives), so a provider that is usually slower needs an asynchronous contract.
 */
export const PROVIDER_TIMEOUT_MS = 4_000;

export interface HttpIdentityProviderOptions {
  url: string;
  /** Sent as `Authorization: Bearer <apiKey>`, when given. */
  apiKey?: string;
  timeoutMs?: number;
  fetch?: Fetch;
}

// The provider's answer: what we read of it. Other fields are allowed and ignored.
const answerSchema = z.looseObject({
  id: requestString().min(1).max(255).optional(),
  people: z.array(z.looseObject({ result: z.enum(IDENTITY_RESULTS) })),
});

export class HttpIdentityProvider implements IdentityProvider {
  readonly name = "http" as const;
  private readonly url: string;
  private readonly apiKey?: string;
  private readonly timeoutMs: number;
  private readonly fetch: Fetch;

  constructor({ url, apiKey, timeoutMs = PROVIDER_TIMEOUT_MS, fetch = globalThis.fetch }: HttpIdentityProviderOptions) {
    this.url = url;
    this.apiKey = apiKey;
    this.timeoutMs = timeoutMs;
    this.fetch = fetch;
  }

  async check(request: IdentityCheckRequest): Promise<IdentityCheckAnswer> {
    const response = await this.send(request);
    if (!response.ok) {
      await response.body?.cancel();
      throw new IdentityProviderUnavailableError(`The identity provider answered ${response.status}`, { status: response.status });
    }
    const answer = answerSchema.safeParse(await this.readJson(response));
    if (!answer.success) {
      throw new IdentityProviderUnavailableError("The identity provider's answer is not in the contract's shape", { status: response.status, cause: answer.error });
    }
    if (answer.data.people.length !== request.people.length) {
      throw new IdentityProviderUnavailableError(
        `The identity provider answered for ${answer.data.people.length} people; ${request.people.length} were sent`,
        { status: response.status },
      );
    }
    return { providerReference: answer.data.id ?? null, results: answer.data.people.map((person) => person.result) };
  }

  private async send(request: IdentityCheckRequest): Promise<Response> {
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      Accept: "application/json",
      // The same check sent again (a retry after a timeout) carries the same key.
      "Idempotency-Key": request.reference,
    };
    if (this.apiKey) headers.Authorization = `Bearer ${this.apiKey}`;
    const body = {
      reference: request.reference,
      company_number: request.companyNumber,
      people: request.people.map(({ first_name, last_name, date_of_birth, role }) => ({ first_name, last_name, date_of_birth, role })),
    };
    try {
      return await this.fetch(this.url, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
        redirect: "error",
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new IdentityProviderUnavailableError("The identity provider could not be reached, or did not answer in time", { cause: error });
    }
  }

  private async readJson(response: Response): Promise<unknown> {
    try {
      return await response.json();
    } catch (error) {
      throw new IdentityProviderUnavailableError("The identity provider answered with a body that is not JSON", { status: response.status, cause: error });
    }
  }
}
