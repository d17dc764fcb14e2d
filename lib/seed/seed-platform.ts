// The platform's reference data, created when missing on every start (whatever SEED_DEMO says: it is not demo
// data): the pricing configuration's first version, the standard CMS pages and the Slice billers.
import { seedBillers } from "../billers/service";
import { seedCmsPages } from "../cms/seed-pages";
import { getPricingConfig } from "../pricing/config";

export interface PlatformSeedResult {
  pricing_version: number;
  cms_pages_created: number;
  billers_created: number;
}

export async function seedPlatform(): Promise<PlatformSeedResult> {
  const pricing = await getPricingConfig();
  return { pricing_version: pricing.version, cms_pages_created: await seedCmsPages(), billers_created: await seedBillers() };
}
