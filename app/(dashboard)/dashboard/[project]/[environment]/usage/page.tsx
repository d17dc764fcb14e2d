// GET /dashboard/{project}/{environment}/usage — the environment's partner API traffic over the last 30 days
// (docs/dashboard.md, "Usage"): requests per day, the 429s among them, as a chart and as the same figures in a table.
// Days are UTC days, as the counter keeps them (lib/usage); every role reads the page.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { BarChart, type ChartBar } from "@/app/_components/bar-chart";
import { clock } from "@/lib/clock";
import { dashboardMemberOrThrow } from "@/lib/dashboard/access";
import { dashboardParamsSchema } from "@/lib/dashboard/schemas";
import { dashboardView } from "@/lib/dashboard/view";
import { FLUSH_INTERVAL_MS } from "@/lib/usage/counter";
import { usageByDay, type UsageDay } from "@/lib/usage/service";
import { readPageValues } from "@/lib/wire/page-values";
import { DashboardShell } from "../../../_components/shell";
import { signedInOrRedirect } from "../../../_components/signed-in";
import "../../../../../(account)/account/account.css";
import "../../../dashboard.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Usage", robots: { index: false, follow: false } };

const DAYS = 30;
const utcDay = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const utcDayWithYear = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const count = new Intl.NumberFormat("en-GB");

/** A label under every seventh bar, the last three days before today's: a label centred under an end bar would be cut off. */
function labelOf(day: UsageDay, index: number): string[] | undefined {
  return (DAYS - 1 - index) % 7 === 3 ? [utcDay.format(new Date(`${day.date}T00:00:00Z`))] : undefined;
}

export default async function UsagePage({ params }: { params: Promise<Record<string, string>> }) {
  const { project, environment } = readPageValues(dashboardParamsSchema.shape, await params);
  if (!project || !environment) notFound();
  const userId = await signedInOrRedirect(`/dashboard/${project}/${environment}/usage`);
  const view = await dashboardView({ userId, params: { project, environment } });
  if (!view) notFound();
  const member = await dashboardMemberOrThrow({ userId, params: { project, environment }, action: "read" });
  const days = await usageByDay(member.tenant, { days: DAYS, now: clock.now() });
  const requests = days.reduce((sum, day) => sum + day.requests, 0);
  const limited = days.reduce((sum, day) => sum + day.rate_limited, 0);
  const bars: ChartBar[] = days.map((day, index) => ({
    key: day.date,
    segments: [
      { value: day.requests - day.rate_limited, className: "dashboard-bar-answered" },
      { value: day.rate_limited, className: "dashboard-bar-limited" },
    ],
    label: labelOf(day, index),
  }));
  const environmentWord = environment === "sandbox" ? "sandbox" : "live";
  return (
    <DashboardShell view={view} section="usage">
      <h1>Usage</h1>
      <p>
        Requests to the partner API with this project&apos;s {environmentWord} tokens over the last {DAYS} days, by UTC day (midnight to midnight UTC; in the UK
        that is 1am to 1am in summer). New requests appear within {FLUSH_INTERVAL_MS / 1000} seconds.
      </p>
      <p className="dashboard-usage-totals">
        <strong>{count.format(requests)}</strong> {requests === 1 ? "request" : "requests"}, of which <strong>{count.format(limited)}</strong> refused for going
        over the rate limit (429).
      </p>
      <figure className="account-chart dashboard-usage-chart">
        <figcaption id="usage-chart-title">Requests per UTC day, oldest first (the last bar is today): answered, and refused with 429 stacked on top.</figcaption>
        <BarChart
          bars={bars}
          maxValue={Math.max(...days.map((day) => day.requests), 1)}
          width={360}
          height={170}
          labelHeight={18}
          barShare={0.75}
          baselineClassName="dashboard-chart-baseline"
          labelClassName="account-axis"
          labelledBy="usage-chart-title"
        />
        <ul className="account-legend">
          <li>
            <span className="account-key dashboard-key-answered" aria-hidden="true" />
            Answered
          </li>
          <li>
            <span className="account-key dashboard-key-limited" aria-hidden="true" />
            Refused with 429
          </li>
        </ul>
      </figure>
      <h2>Each day</h2>
      <div className="account-table-region" role="region" aria-labelledby="usage-caption" tabIndex={0}>
        <table className="account-table">
          <caption id="usage-caption">Requests and 429s per UTC day, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col" className="account-money">
                Requests
              </th>
              <th scope="col" className="account-money">
                Refused with 429
              </th>
            </tr>
          </thead>
          <tbody>
            {days.toReversed().map((day) => (
              <tr key={day.date}>
                <td>{utcDayWithYear.format(new Date(`${day.date}T00:00:00Z`))}</td>
                <td className="account-money">{count.format(day.requests)}</td>
                <td className="account-money">{count.format(day.rate_limited)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </DashboardShell>
  );
}
