// /business-loan-terms — the Business Loan terms and conditions the hosted journey's applicant agrees to, the CMS
// page "business-loan-terms" (content/cms/business-loan-terms.md until an operator edits it).
import { CmsArticle, cmsArticleMetadata } from "../_components/cms-article";

export const generateMetadata = () => cmsArticleMetadata("business-loan-terms");

export default function BusinessLoanTermsPage() {
  return <CmsArticle pageKey="business-loan-terms" />;
}
