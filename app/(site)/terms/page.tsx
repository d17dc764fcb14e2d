// /terms — Terms of use, the CMS page "terms" (content/cms/terms.md until an operator edits it).
import { CmsArticle, cmsArticleMetadata } from "../_components/cms-article";

export const generateMetadata = () => cmsArticleMetadata("terms");

export default function TermsPage() {
  return <CmsArticle pageKey="terms" />;
}
