// /about — About us, the CMS page "about" (content/cms/about.md until an operator edits it).
import { CmsArticle, cmsArticleMetadata } from "../_components/cms-article";

export const generateMetadata = () => cmsArticleMetadata("about");

export default function AboutPage() {
  return <CmsArticle pageKey="about" />;
}
