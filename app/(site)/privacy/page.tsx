// /privacy — Privacy notice, the CMS page "privacy" (content/cms/privacy.md until an operator edits it).
import { CmsArticle, cmsArticleMetadata } from "../_components/cms-article";

export const generateMetadata = () => cmsArticleMetadata("privacy");

export default function PrivacyPage() {
  return <CmsArticle pageKey="privacy" />;
}
