// A settings page that only admins may use, as anyone else sees it: what the page is for, who can do it
// for them, and how to reach them (rather than a "page not found" for a link they can see named).
import type { ReactNode } from 'react';

export function AskAnAdmin({ page, title, admins, children }: { page: string; title: string; admins: { name: string; email: string }[]; children: ReactNode }) {
  return (
    <div className="page">
      <header className="page-header">
        <h1>{page}</h1>
      </header>
      <section className="card notice" aria-labelledby="ask-title">
        <h2 id="ask-title">{title}</h2>
        <p>{children}</p>
        {admins.length > 0 && (
          <ul className="admins">
            {admins.map((admin) => (
              <li key={admin.email}>
                {admin.name} · <a href={`mailto:${admin.email}`}>{admin.email}</a>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
