'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { Icon, Loading } from '../_components/ui';
import { activateOrganization, authClient } from '../_lib/auth-client';
import { apiError, useTRPC, type Outputs } from '../_lib/trpc';

type Me = Outputs['dashboard']['me'];
type ActiveMe = Me & { active: NonNullable<Me['active']> };

const MeContext = createContext<ActiveMe | null>(null);

/** The signed-in user, their role and organization (inside the app shell). */
export function useMe(): ActiveMe {
  const me = useContext(MeContext);
  if (!me) throw new Error('useMe outside the app shell');
  return me;
}

export function useIsAdmin(): boolean {
  const role = useMe().active.role;
  return role === 'owner' || role === 'admin';
}

function NavLink({ href, icon, children }: { href: string; icon: ReactNode; children: ReactNode }) {
  const path = usePathname();
  const current = path === href || path.startsWith(`${href}/`);
  return (
    <Link href={href} aria-current={current ? 'page' : undefined}>
      {icon}
      {children}
    </Link>
  );
}

function OrgSwitcher({ me }: { me: ActiveMe }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  return (
    <label className="field" style={{ padding: '0 4px' }}>
      <span className="sr-only">Organization</span>
      <select
        className="select"
        aria-label="Organization"
        value={me.active.id}
        onChange={async (e) => {
          const value = e.target.value;
          if (value === '__new') {
            router.push('/onboarding');
            return;
          }
          await activateOrganization(value, queryClient);
          router.push('/sessions');
        }}
      >
        {me.organizations.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
        <option value="__new">+ New organization…</option>
      </select>
    </label>
  );
}

/** Single-key shortcuts outside text fields: `/` search, `u` upload, `s` sessions. */
function useShortcuts() {
  const router = useRouter();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (e.metaKey || e.ctrlKey || e.altKey || t.closest('input, textarea, select, [contenteditable="true"]')) return;
      if (e.key === '/') {
        const search = document.querySelector<HTMLInputElement>('[data-search]');
        if (search) {
          e.preventDefault();
          search.focus();
        }
      } else if (e.key === 'u') router.push('/upload');
      else if (e.key === 's') router.push('/sessions');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [router]);
}

/** Admins see, on every page, that the service turned auto-recharge off (three failed charges in a row). */
function RechargeBanner() {
  const trpc = useTRPC();
  const settings = useQuery({ ...trpc.dashboard.billing.autoRecharge.queryOptions(), staleTime: 60_000 });
  const reason = settings.data?.disabled_reason;
  if (!reason) return null;
  return (
    <div className="notice notice-warning" role="alert" data-testid="recharge-banner" style={{ margin: '16px 24px 0' }}>
      <div>
        <strong>Auto-recharge is off</strong>
        {reason} <Link href="/billing">Billing</Link>
      </div>
    </div>
  );
}

export function AppShell({ children }: { children: ReactNode }) {
  const trpc = useTRPC();
  const router = useRouter();
  const path = usePathname();
  const queryClient = useQueryClient();
  const me = useQuery(trpc.dashboard.me.queryOptions());
  const [navOpen, setNavOpen] = useState(false);
  useShortcuts();
  useEffect(() => setNavOpen(false), [path]);

  const status = apiError(me.error)?.status;
  useEffect(() => {
    if (status === 401) router.replace(`/sign-in?next=${encodeURIComponent(path)}`);
    else if (me.data && !me.data.active && !me.isFetching) router.replace('/onboarding');
  }, [status, me.data, me.isFetching, router, path]);

  if (!me.data?.active) {
    return (
      <main className="auth-wrap">
        {me.error && status !== 401 ? (
          <div className="notice notice-danger" role="alert">
            The dashboard could not load. <button className="btn btn-sm" onClick={() => me.refetch()}>Try again</button>
          </div>
        ) : (
          <Loading label="Loading the dashboard…" />
        )}
      </main>
    );
  }
  const data = me.data as ActiveMe;
  const admin = data.active.role === 'owner' || data.active.role === 'admin';

  return (
    <MeContext.Provider value={data}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="shell" data-nav-open={navOpen}>
        <div className="scrim" onClick={() => setNavOpen(false)} aria-hidden="true" />
        <aside className="sidebar" aria-label="Main">
          <div className="brand">
            <span className="brand-mark" aria-hidden="true">S</span> Swish
          </div>
          <OrgSwitcher me={data} />
          <nav className="nav" aria-label="Dashboard">
            <NavLink href="/sessions" icon={Icon.sessions}>
              Sessions
            </NavLink>
            <NavLink href="/upload" icon={Icon.upload}>
              Upload
            </NavLink>
            <NavLink href="/team" icon={Icon.team}>
              Team &amp; groups
            </NavLink>
            {admin && (
              <>
                <div className="nav-section">Admin</div>
                <NavLink href="/billing" icon={Icon.billing}>
                  Billing
                </NavLink>
                <NavLink href="/developers" icon={Icon.code}>
                  Developers
                </NavLink>
              </>
            )}
            <div className="nav-section">Help</div>
            <a href="/docs/api">
              {Icon.book}
              API reference
            </a>
          </nav>
          <div className="sidebar-foot">
            <div className="user-line">
              <div className="who">
                <div style={{ fontWeight: 500 }}>{data.user.name}</div>
                {/* the role first: a long address is cut, the role never is */}
                <div className="cell-sub" title={data.user.email}>
                  <span data-testid="role">{data.active.role}</span> · {data.user.email}
                </div>
              </div>
              <button
                className="btn btn-ghost btn-sm"
                onClick={async () => {
                  await authClient.signOut();
                  queryClient.clear();
                  router.replace('/sign-in');
                }}
              >
                Sign out
              </button>
            </div>
            <div className="cell-sub hide-sm" style={{ padding: '0 6px 4px' }}>
              <span className="kbd">/</span> search · <span className="kbd">U</span> upload · <span className="kbd">S</span> sessions
            </div>
          </div>
        </aside>
        <div className="main">
          <header className="topbar">
            <button className="btn btn-ghost btn-sm" aria-label="Open menu" aria-expanded={navOpen} onClick={() => setNavOpen(true)}>
              {Icon.menu}
            </button>
            <span className="brand" style={{ padding: 0 }}>
              <span className="brand-mark" aria-hidden="true">S</span> Swish
            </span>
            <Link className="btn btn-primary btn-sm" href="/upload">
              Upload
            </Link>
          </header>
          <main id="main" tabIndex={-1}>
            {admin && <RechargeBanner />}
            {children}
          </main>
        </div>
      </div>
    </MeContext.Provider>
  );
}
