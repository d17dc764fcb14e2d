// /complaints — Complaints, the CMS page "complaints" (content/cms/complaints.md until an operator edits it).
import { CmsArticle, cmsArticleMetadata } from "../_components/cms-article";

export const generateMetadata = () => cmsArticleMetadata("complaints");

export default function ComplaintsPage() {
  return <CmsArticle pageKey="complaints" />;
}
