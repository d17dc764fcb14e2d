// The CSRF double-submit's pieces (lib/wire/csrf.ts): tokens are random and cookie-safe, the cookie carries the
// attributes the spec names, the Cookie header is read as browsers write it, and only a well-formed header that
// equals the cookie passes.
import { describe, expect, it } from "vitest";
import { csrfCookieHeader, csrfCookieOf, hasMatchingCsrfToken, isWellFormedCsrfToken, newCsrfToken } from "@/lib/wire/csrf";

const request = (headers: Record<string, string>) => new Request("http://localhost/api/assistant/public", { method: "POST", headers });

describe("tokens and the cookie", () => {
  it("makes 43-character base64url tokens, a different one each time", () => {
    const tokens = new Set(Array.from({ length: 100 }, newCsrfToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(isWellFormedCsrfToken(token)).toBe(true);
  });

  it("writes the cookie SameSite=Strict on the whole site, Secure only when asked, never HttpOnly", () => {
    expect(csrfCookieHeader("abc", false)).toBe("svc_csrf=abc; Path=/; SameSite=Strict");
    expect(csrfCookieHeader("abc", true)).toBe("svc_csrf=abc; Path=/; SameSite=Strict; Secure");
  });

  it.each(["", "short", `${"a".repeat(42)}=`, `${"a".repeat(44)}`, `${"a".repeat(42)}+`, `${"a".repeat(42)};`])("calls %j malformed", (token) => {
    expect(isWellFormedCsrfToken(token)).toBe(false);
  });
});

describe("reading the Cookie header", () => {
  it("finds svc_csrf among other cookies, with or without spaces", () => {
    expect(csrfCookieOf(request({ cookie: "theme=dark; svc_csrf=one; other=two" }))).toBe("one");
    expect(csrfCookieOf(request({ cookie: "theme=dark;svc_csrf=one" }))).toBe("one");
  });

  it("takes the first svc_csrf when a browser sends two, and does not match a cookie whose name only ends in it", () => {
    expect(csrfCookieOf(request({ cookie: "svc_csrf=first; svc_csrf=second" }))).toBe("first");
    expect(csrfCookieOf(request({ cookie: "x_svc_csrf=one" }))).toBeNull();
    expect(csrfCookieOf(request({}))).toBeNull();
  });
});

describe("the double submit", () => {
  const token = newCsrfToken();

  it("passes a header that equals the cookie", () => {
    expect(hasMatchingCsrfToken(request({ cookie: `svc_csrf=${token}`, "x-csrf-token": token }))).toBe(true);
  });

  it.each([
    ["no cookie", { "x-csrf-token": token }],
    ["no header", { cookie: `svc_csrf=${token}` }],
    ["a different header", { cookie: `svc_csrf=${token}`, "x-csrf-token": newCsrfToken() }],
    ["a header differing in one character", { cookie: `svc_csrf=${token}`, "x-csrf-token": `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}` }],
    ["equal but malformed values", { cookie: "svc_csrf=abc", "x-csrf-token": "abc" }],
    ["equal empty values", { cookie: "svc_csrf=", "x-csrf-token": "" }],
    ["the token in another cookie", { cookie: `other=${token}`, "x-csrf-token": token }],
  ])("refuses %s", (_case, headers) => {
    expect(hasMatchingCsrfToken(request(headers))).toBe(false);
  });
});
