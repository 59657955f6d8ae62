// notFound() in a settings page (a page only admins may see, a key of another organisation, any
// unknown address under /settings): the site's 404, inside the settings frame that already holds the
// page's one <main>.
import type { Metadata } from 'next';
import { NotFoundBody } from '../not-found-body';

export const metadata: Metadata = { title: 'Page not found · Metrics API' };

export default function SettingsNotFound() {
  return (
    <div className="page">
      <NotFoundBody />
    </div>
  );
}
