// What the Webhooks pages say of an endpoint, and the fields of its Add and Edit forms (URL, events, description).
import { EVENT_TYPES } from "@/lib/events/events";
import { EVENT_CHOICES, eventCheckboxName } from "@/lib/dashboard/schemas";
import type { serializeWebhookEndpoint } from "@/lib/webhooks/serialize";
import { FieldError } from "../../../_components/refused-form";

type Endpoint = ReturnType<typeof serializeWebhookEndpoint>;

export const ENDPOINT_FIELD_LABELS = { url: "URL", enabled_events: "Events to send", description: "Description" };

const DISABLED_WORDS = {
  manual: "Disabled by your team",
  failing: "Disabled: deliveries failed for 72 hours",
  insecure_url: "Disabled: its URL is not https",
} as const;

export function statusWords(endpoint: Pick<Endpoint, "status" | "disabled_reason">): string {
  if (endpoint.status === "enabled") return "Enabled";
  return DISABLED_WORDS[(endpoint.disabled_reason ?? "manual") as keyof typeof DISABLED_WORDS] ?? "Disabled";
}

export function eventsWords(enabledEvents: readonly string[]): string {
  return enabledEvents[0] === "*" ? "All events" : enabledEvents.join(", ");
}

/** The id of a field's input in the form `form` (the error summary links to it). */
export const endpointFieldId = (form: string, field: string) => (field === "enabled_events" ? `${form}-event-all` : `${form}-${field}`);

/**
 * The URL, events and description of an endpoint form, filled with `values` (the endpoint's, or the answers a
 * refused post kept) and each field's refusal beside it.
 */
export function EndpointFields({ form, values, errors }: { form: string; values: { url: string; description: string; enabledEvents: readonly string[] }; errors: Record<string, string> }) {
  const described = (field: string) => (errors[field] ? `${form}-${field}-error` : undefined);
  return (
    <>
      <div className="dashboard-field">
        <label htmlFor={endpointFieldId(form, "url")}>URL</label>
        <p className="dashboard-muted" id={`${form}-url-hint`}>
          Where we send events: an https address of your server.
        </p>
        <FieldError id={`${form}-url-error`} message={errors.url} />
        <input
          id={endpointFieldId(form, "url")}
          name="url"
          type="url"
          inputMode="url"
          spellCheck={false}
          defaultValue={values.url}
          aria-invalid={errors.url ? true : undefined}
          aria-describedby={[`${form}-url-hint`, described("url")].filter(Boolean).join(" ")}
        />
      </div>
      <fieldset className="dashboard-field dashboard-events" aria-describedby={[`${form}-events-hint`, described("enabled_events")].filter(Boolean).join(" ")}>
        <legend>Events to send</legend>
        <p className="dashboard-muted" id={`${form}-events-hint`}>
          Select all that apply. All events includes event types added later.
        </p>
        <FieldError id={`${form}-enabled_events-error`} message={errors.enabled_events} />
        <ul>
          {EVENT_CHOICES.map((type) => {
            const id = type === "*" ? endpointFieldId(form, "enabled_events") : `${form}-event-${type.replace(".", "-")}`;
            return (
              <li key={type}>
                <input id={id} name={eventCheckboxName(type)} type="checkbox" defaultChecked={values.enabledEvents.includes(type)} />
                <label htmlFor={id}>{type === "*" ? "All events" : <code>{type}</code>}</label>
              </li>
            );
          })}
        </ul>
      </fieldset>
      <div className="dashboard-field">
        <label htmlFor={endpointFieldId(form, "description")}>Description (optional)</label>
        <FieldError id={`${form}-description-error`} message={errors.description} />
        <input
          id={endpointFieldId(form, "description")}
          name="description"
          type="text"
          defaultValue={values.description}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={described("description")}
        />
      </div>
    </>
  );
}

/** The form's values after a refused post: the answers as typed. */
export function refusedEndpointValues(values: Record<string, string>) {
  return { url: values.url ?? "", description: values.description ?? "", enabledEvents: (values.enabled_events ?? "").split(",").filter((type) => type === "*" || (EVENT_TYPES as readonly string[]).includes(type)) };
}
