// /apply/{token}/{step} — one step of the hosted journey (docs/hosted-journey.md). The token and the application's
// state are checked on every request: a step the application has not reached, or has left, is not shown; the
// page says where the application stands instead.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { cache, type ReactNode } from "react";
import { readPageValues } from "@/lib/wire/page-values";
import { openJourney, type Journey } from "@/lib/journey/journey";
import { journeyPageParamsSchema, journeyPageQuerySchema, type ReturnStep } from "@/lib/journey/schemas";
import { stepAccess, STEP_TITLES, type JourneyStep } from "@/lib/journey/steps";
import { EmbeddingBridge } from "../embedding-bridge";
import { JourneyFrame } from "../journey-parts";
import { AboutYouStep, BankStep, CheckAnswersStep, ClosedPage, CompanyStep, DirectorsStep, DoneStep, ElsewherePage, LoanStep, NotFoundJourney, OfferStep, WaitingStep } from "../steps";
import "../../../hosted.css";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ token: string; step: string }>; searchParams?: Promise<Record<string, string | string[] | undefined>> };

/** The journey as this request shows it, read once for the page and its title. */
const openJourneyOnce = cache((token: string) => openJourney(token));

/**
 * The journey of the page's address; its refused form only at the address the refused post redirected to (the
 * refusal's id in `refused`): errors belong to the post that caused them, not to whoever opens the link later.
 */
async function journeyOf({ params, searchParams }: Props): Promise<{ journey: Journey | null; token?: string; step?: JourneyStep; returnTo?: ReturnStep; director?: number }> {
  const { token, step } = readPageValues(journeyPageParamsSchema.shape, await params);
  const { refused, return: returnTo, director } = readPageValues(journeyPageQuerySchema.shape, (await searchParams) ?? {});
  const journey = token && step ? await openJourneyOnce(token) : null;
  if (!journey) return { journey: null, token, step };
  const refusal = journey.refusal && journey.refusal.id === refused && journey.refusal.step === step ? journey.refusal : null;
  return { journey: { ...journey, refusal }, token, step, returnTo, director };
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { journey, step } = await journeyOf(props);
  const title = step ? STEP_TITLES[step] : "Your application";
  return { title: journey?.refusal ? `Error: ${title}` : title, robots: { index: false, follow: false } };
}

export default async function JourneyStepPage(props: Props) {
  const { journey, token, step, returnTo, director } = await journeyOf(props);
  if (!journey || !token || !step) return frame(null, <NotFoundJourney />);
  const shown = (shownStep: JourneyStep | null, content: ReactNode) => frame(shownStep, content, journey, token);
  if (journey.current === "withdrawn" || journey.current === "expired") return shown(null, <ClosedPage state={journey.current} />);
  const access = stepAccess(step, {
    status: journey.application.status,
    companyConfirmed: journey.journey.companyConfirmedAt !== null,
    loanGiven: journey.journey.loanConfirmedAt !== null,
    applicantGiven: journey.people.length > 0,
    identityChecked: journey.identityStatus !== null,
    bankConnected: journey.monthlyTurnoverPence !== null,
  });
  // Waiting is not a step a person finishes: once the decision is in (it may land between the submit's redirect and
  // this view), its address opens where the application now is.
  if (!access.open && step === "waiting" && access.reason === "left") redirect(`/apply/${token}/${journey.current}`);
  if (!access.open) return shown(null, <ElsewherePage journey={journey} reason={access.reason} current={journey.current} />);
  const views: Record<JourneyStep, () => Promise<ReactNode> | ReactNode> = {
    company: () => <CompanyStep journey={journey} returnTo={returnTo} />,
    loan: () => <LoanStep journey={journey} returnTo={returnTo} />,
    "about-you": () => <AboutYouStep journey={journey} returnTo={returnTo} />,
    directors: () => <DirectorsStep journey={journey} returnTo={returnTo} director={director} />,
    bank: () => <BankStep journey={journey} returnTo={returnTo} />,
    "check-answers": () => <CheckAnswersStep journey={journey} />,
    waiting: () => <WaitingStep journey={journey} now={journey.now} />,
    offer: () => <OfferStep journey={journey} />,
    done: () => <DoneStep journey={journey} />,
  };
  return shown(step, await views[step]());
}

/**
 * A page of the journey; in the apply.js widget's frame, Escape on it asks the widget to close (the done step has
 * a bridge of its own, which also announces the end).
 */
function frame(step: JourneyStep | null, content: ReactNode, journey?: Journey, token?: string) {
  const embeddingOrigin = journey?.application.embeddingOrigin;
  return (
    <JourneyFrame step={step} position={journey && token ? { token, reached: journey.current } : undefined}>
      {embeddingOrigin && step !== "done" ? <EmbeddingBridge origin={embeddingOrigin} applicationId={journey.application.id} complete={false} redirect={null} /> : null}
      {content}
    </JourneyFrame>
  );
}
