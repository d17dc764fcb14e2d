// /cookies — the CMS page "cookies", and the visitor's own choice, which they can change here.
import { CmsArticle, cmsArticleMetadata } from "../_components/cms-article";
import { CookieSettings } from "../_components/cookie-banner";

export const generateMetadata = () => cmsArticleMetadata("cookies");

export default function CookiesPage() {
  return (
    <CmsArticle pageKey="cookies">
      <CookieSettings />
    </CmsArticle>
  );
}
