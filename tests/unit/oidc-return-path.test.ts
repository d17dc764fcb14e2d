// Where a finished sign-in returns the person (lib/oidc/app-client.ts): a page of the borrower area or the
// dashboard, never anywhere else.
import { describe, expect, it } from "vitest";
import { appSignInReturnPath } from "@/lib/oidc/app-client";

describe("appSignInReturnPath", () => {
  it.each(["/account", "/dashboard", "/dashboard/proj_01m8ew0000000000000000000/sandbox/keys", "/dashboard/sign-in"])("keeps %s", (path) => {
    expect(appSignInReturnPath(path)).toBe(path);
  });

  it.each([
    "//evil.example/dashboard",
    "https://evil.example/dashboard",
    "/dashboard/../admin",
    "/dashboard/%2e%2e/x",
    "/dashboard?next=https://evil.example",
    "/dashboard#x",
    "/accounts",
    "/dashboardx",
    "/",
    "dashboard",
    "/dashboard/\\evil",
    `/dashboard/${"a".repeat(200)}`,
    "",
    null,
    undefined,
    42,
  ])("sends %j to /account instead", (requested) => {
    expect(appSignInReturnPath(requested)).toBe("/account");
  });
});
