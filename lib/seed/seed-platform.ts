// The platform's reference data, created when missing on every start (whatever SEED_DEMO says: it is not demo
// data): the pricing configuration's first version, the standard CMS pages, the Slice billers and the platform's
// own project, whose key the site's Apply page starts applications with (lib/direct-apply/site-project.ts).
import { seedBillers } from "../billers/service";
import { seedCmsPages } from "../cms/seed-pages";
import { db } from "../db";
import { ensureSiteProject } from "../direct-apply/site-project";
import { getPricingConfig } from "../pricing/config";

export interface PlatformSeedResult {
  pricing_version: number;
  cms_pages_created: number;
  billers_created: number;
  site_project_created: boolean;
}

export async function seedPlatform(): Promise<PlatformSeedResult> {
  const pricing = await getPricingConfig();
  const cmsPagesCreated = await seedCmsPages();
  const billersCreated = await seedBillers();
  const site = await ensureSiteProject(db());
  return { pricing_version: pricing.version, cms_pages_created: cmsPagesCreated, billers_created: billersCreated, site_project_created: site.created };
}
