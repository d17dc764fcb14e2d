// Every project page's frame: the project switcher (when the person has several), the Sandbox / Live switch (both
// are links to the same section under another address), the sections, and Sign out.
import type { ReactNode } from "react";
import type { DashboardView } from "@/lib/dashboard/view";
import { SignOutButton } from "@/app/_auth/sign-out-button";

// Every section every role may read, in the order the nav shows them; the beta sections (a project with the `beta`
// capability only: docs/beta.md) follow the accounts, and Activity (owners only) comes last.
const SECTION_WORDS = { keys: "API keys", webhooks: "Webhooks", events: "Events", applications: "Applications", accounts: "Accounts", team: "Team", usage: "Usage" } as const;
const BETA_SECTION_WORDS = { "sub-accounts": "Sub-accounts", introductions: "Introductions", payouts: "Payouts" } as const;
const BETA_AFTER: keyof typeof SECTION_WORDS = "accounts";

export type DashboardSection = keyof typeof SECTION_WORDS | keyof typeof BETA_SECTION_WORDS | "activity";

export const ROLE_WORDS = { owner: "Owner", developer: "Developer", viewer: "Viewer" } as const;

export function DashboardShell({ view, section, children }: { view: DashboardView; section: DashboardSection; children: ReactNode }) {
  const { current } = view;
  const pathFor = (project: string, environment: string) => `/dashboard/${project}/${environment}/${section}`;
  // Another project may not have the beta sections: from one of them, the switcher goes to its accounts.
  const projectPathFor = (project: string) => `/dashboard/${project}/${current.environment}/${section in BETA_SECTION_WORDS ? BETA_AFTER : section}`;
  const sections: Array<[DashboardSection, string]> = Object.entries(SECTION_WORDS).flatMap(([name, words]) => [
    [name as DashboardSection, words] as [DashboardSection, string],
    ...(name === BETA_AFTER && view.beta ? (Object.entries(BETA_SECTION_WORDS) as Array<[DashboardSection, string]>) : []),
  ]);
  return (
    <div className="dashboard">
      <header className="dashboard-header">
        <a className="dashboard-brand" href="/dashboard">
          Lending Platform dashboard
        </a>
        <SignOutButton />
      </header>
      <nav className="dashboard-context" aria-label="Project and environment">
        {view.projects.length > 1 ? (
          <details className="dashboard-switcher">
            <summary>
              Project: <strong>{current.name}</strong>
            </summary>
            <ul>
              {view.projects.map((project) => (
                <li key={project.id}>
                  <a href={project.id === current.id ? pathFor(project.id, current.environment) : projectPathFor(project.id)} aria-current={project.id === current.id ? "page" : undefined}>
                    {project.name} <span className="dashboard-muted">({ROLE_WORDS[project.role]})</span>
                  </a>
                </li>
              ))}
            </ul>
          </details>
        ) : (
          <p className="dashboard-project">
            Project: <strong>{current.name}</strong>
          </p>
        )}
        <ul className="dashboard-environments" aria-label="Environment">
          {(["sandbox", "live"] as const).map((environment) => (
            <li key={environment}>
              <a href={pathFor(current.id, environment)} aria-current={environment === current.environment ? "page" : undefined}>
                {environment === "sandbox" ? "Sandbox" : "Live"}
              </a>
            </li>
          ))}
        </ul>
        <p className="dashboard-muted">Your role: {ROLE_WORDS[current.role]}</p>
      </nav>
      {current.environment === "live" ? <p className="dashboard-live-banner">You are looking at live data: changes here affect real borrowers.</p> : null}
      <nav className="dashboard-sections" aria-label="Sections">
        {sections.map(([name, words]) => (
          <a key={name} href={`/dashboard/${current.id}/${current.environment}/${name}`} aria-current={section === name ? "page" : undefined}>
            {words}
          </a>
        ))}
        {view.allowed.read_audit_log ? (
          <a href={`/dashboard/${current.id}/${current.environment}/activity`} aria-current={section === "activity" ? "page" : undefined}>
            Activity
          </a>
        ) : null}
      </nav>
      <main className="dashboard-main">{children}</main>
    </div>
  );
}
