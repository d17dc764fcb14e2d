// The test receivers' certificate is trusted through the run's own CA file (NODE_EXTRA_CA_CERTS, given to the test
// processes as they start), never by rebuilding this process's default CA list from the machine's: a machine whose
// list holds a certificate OpenSSL cannot parse (from a system store or its own NODE_EXTRA_CA_CERTS bundle) made
// `tls.setDefaultCACertificates` throw `error:0488000D:PEM routines::ASN1 lib`, and every webhook test failed to load.
import { X509Certificate } from "node:crypto";
import https from "node:https";
import type { AddressInfo } from "node:net";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createSelfSignedCertificate, trustedTestCertificate } from "../helpers/tls";

/** A certificate block whose body is not an X.509 certificate: what OpenSSL fails on with `ASN1 lib`. */
const UNPARSEABLE = "-----BEGIN CERTIFICATE-----\nMIIBAAAAAAAAAA==\n-----END CERTIFICATE-----\n";

const getCACertificates = tls.getCACertificates.bind(tls);
const setDefaultCACertificates = vi.spyOn(tls, "setDefaultCACertificates");
vi.spyOn(tls, "getCACertificates").mockImplementation((type) => (type === "default" ? [...getCACertificates("default"), UNPARSEABLE] : getCACertificates(type)));

let receiver: https.Server | undefined;

beforeAll(async () => {
  receiver = https.createServer(trustedTestCertificate(), (_request, response) => response.writeHead(200).end("received"));
  await new Promise<void>((resolve) => receiver!.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  await new Promise((resolve) => (receiver ? receiver?.close(resolve) : resolve(undefined)));
  vi.restoreAllMocks();
});

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      })
      .on("error", reject);
  });
}

describe("the test receivers' certificate", () => {
  it("is the run's certificate, whatever the machine's default CA list holds, and leaves that list alone", () => {
    expect(new X509Certificate(trustedTestCertificate().cert).subject).toBe("CN=lending-platform test receiver");
    expect(setDefaultCACertificates).not.toHaveBeenCalled();
  });

  it("is trusted by a TLS client of this process that names no CA of its own, as the webhook client is", async () => {
    const { port } = receiver!.address() as AddressInfo;
    expect(await get(`https://127.0.0.1:${port}/`)).toEqual({ status: 200, body: "received" });
  });

  it.each([
    ["a zero byte", [0x00, 0x12, 0x34], "1234"],
    ["two zero bytes", [0x00, 0x00, 0x56], "56"],
    ["a zero byte before a high bit", [0x00, 0x80], "80"],
    ["a high bit", [0x80, 0x01], "8001"],
  ])("is a certificate OpenSSL reads when its random serial number starts with %s", (_case, serialNumber, expected) => {
    expect(new X509Certificate(createSelfSignedCertificate(undefined, Uint8Array.from(serialNumber)).cert).serialNumber).toBe(expected);
  });
});
