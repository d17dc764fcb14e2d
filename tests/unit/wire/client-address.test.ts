import { describe, expect, it } from "vitest";
import { addressBucket, ipv6Groups } from "@/lib/wire/client-address";

describe("ipv6Groups", () => {
  it("expands :: to the missing zero groups", () => {
    expect(ipv6Groups("2001:db8::1")).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]);
  });

  it("reads a trailing dotted quad as its two groups", () => {
    expect(ipv6Groups("64:ff9b::192.0.2.33")).toEqual([0x64, 0xff9b, 0, 0, 0, 0, 0xc000, 0x0221]);
  });
});

describe("addressBucket", () => {
  it("buckets an IPv6 address by its /64, leading zeros dropped", () => {
    expect(addressBucket("2001:0db8:0001:0002:0000:0000:0000:0001")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:db8::5")).toBe("2001:db8:0:0::/64");
  });

  it("keeps IPv4, and IPv4 mapped into IPv6, as the plain IPv4 address", () => {
    expect(addressBucket("192.0.2.1")).toBe("192.0.2.1");
    expect(addressBucket("::ffff:192.0.2.1")).toBe("192.0.2.1");
  });
});
