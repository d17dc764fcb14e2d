// /apply/{token} — where handoff_url lands (docs/hosted-journey.md): the application's journey opens at the step
// it has reached. A `state` in the address is kept for the redirect at the end (one that is not request text,
// lib/wire/page-values.ts, is ignored).
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { readPageValues } from "@/lib/wire/page-values";
import { openJourney } from "@/lib/journey/journey";
import { journeyEntryQuerySchema, journeyTokenParamsSchema } from "@/lib/journey/schemas";
import { JourneyFrame } from "./journey-parts";
import { ClosedPage, NotFoundJourney } from "./steps";
import "../../hosted.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Your application", robots: { index: false, follow: false } };

type Props = { params: Promise<{ token: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function JourneyEntry({ params, searchParams }: Props) {
  const { token } = readPageValues(journeyTokenParamsSchema.shape, await params);
  const { state } = readPageValues(journeyEntryQuerySchema.shape, await searchParams);
  const journey = token ? await openJourney(token, { callerState: state }) : null;
  if (!journey) {
    return (
      <JourneyFrame step={null}>
        <NotFoundJourney />
      </JourneyFrame>
    );
  }
  if (journey.current === "withdrawn" || journey.current === "expired") {
    return (
      <JourneyFrame step={null}>
        <ClosedPage state={journey.current} />
      </JourneyFrame>
    );
  }
  redirect(`/apply/${journey.token}/${journey.current}`);
}
