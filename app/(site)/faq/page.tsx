// /faq — Questions and answers, the CMS page "faq" (content/cms/faq.md until an operator edits it).
import { CmsArticle, cmsArticleMetadata } from "../_components/cms-article";

export const generateMetadata = () => cmsArticleMetadata("faq");

export default function FaqPage() {
  return <CmsArticle pageKey="faq" />;
}
