// Which open-banking provider reads a company's turnover: the sandbox's simulated bank in the sandbox; none in
// live until a real provider is connected, so live affordability comes from the partner's own figures.
import type { OpenBankingProvider } from "./provider";
import { SandboxBank } from "./sandbox-bank";
import type { TenantEnvironment } from "../tenant";

const sandboxBank = new SandboxBank();

export function openBankingProviderFor(environment: TenantEnvironment): OpenBankingProvider | null {
  return environment === "sandbox" ? sandboxBank : null;
}
