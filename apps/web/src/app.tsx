import { useEffect, useState } from 'preact/hooks';
import { signOut } from './api/endpoints.js';
import { ErrorMessage } from './components/error-message.js';
import { Link } from './components/link.js';
import { OrganizationSwitcher } from './components/organization-switcher.js';
import { locationStore, navigate } from './lib/navigation.js';
import { feedStore, startFeed, stopFeed } from './live/feed.js';
import { APP_BASE, parseRoute, signInHref, type Route } from './lib/routes.js';
import { useStore } from './lib/store.js';
import { AccountPage } from './pages/account.js';
import { AuditPage } from './pages/audit.js';
import { InventoryPage } from './pages/inventory.js';
import { InvitationsPage } from './pages/invitations.js';
import { MapPage } from './pages/map-page.js';
import { BrowsePage } from './pages/browse.js';
import { SignInPage } from './pages/sign-in.js';
import { SignUpPage } from './pages/sign-up.js';
import { refreshSession, sessionStore, signedOut, type SessionState } from './session.js';

function Page(props: { readonly route: Route; readonly session: SessionState }) {
  const { route, session } = props;
  switch (route.name) {
    case 'browse':
      return <BrowsePage target={{ slugs: route.slugs }} session={session} />;
    case 'node':
      return <BrowsePage target={{ id: route.id }} session={session} />;
    case 'sign-in':
      return <SignInPage next={route.next} />;
    case 'sign-up':
      return <SignUpPage />;
    case 'account':
      return <AccountPage session={session} />;
    case 'inventory':
      return <InventoryPage session={session} />;
    case 'audit':
      return <AuditPage session={session} />;
    case 'map':
      return <MapPage session={session} />;
    case 'invitations':
      return <InvitationsPage session={session} invitationId={route.id} />;
    case 'not-found':
      return (
        <section>
          <h1>Not found</h1>
          <p>
            Nothing is at <code>{route.path}</code>. <Link href={`${APP_BASE}/`}>Back to the root level</Link>
          </p>
        </section>
      );
  }
}

const LIVE_TEXT = {
  connecting: 'connecting…',
  live: 'live',
  reconnecting: 'reconnecting…',
  stopped: 'offline',
} as const;

/** Whether changes made elsewhere show up by themselves right now. */
function LiveStatus() {
  const feed = useStore(feedStore);
  return (
    <span class={`live live-${feed.status}`} data-testid="live-status" role="status">
      {LIVE_TEXT[feed.status]}
    </span>
  );
}

function Header(props: { readonly session: SessionState; readonly route: Route }) {
  const { session, route } = props;
  const [error, setError] = useState<unknown>(null);
  const user = session.view?.user ?? null;
  const role = session.view?.activeOrganization?.role;
  const isAdmin = role === 'admin' || role === 'owner';

  async function leave() {
    try {
      await signOut();
      signedOut();
      navigate(`${APP_BASE}/`);
    } catch (caught) {
      setError(caught);
    }
  }

  return (
    <header class="top">
      <Link href={`${APP_BASE}/`} class="brand">
        Portal explorer
      </Link>
      <nav aria-label="Main">
        <Link href={`${APP_BASE}/`} current={route.name === 'browse' && route.slugs.length === 0}>
          Browse
        </Link>
        <Link href={`${APP_BASE}/inventory`} current={route.name === 'inventory'}>
          Inventory
        </Link>
        <Link href={`${APP_BASE}/map`} current={route.name === 'map'}>
          Map
        </Link>
        {user ? (
          <Link href={`${APP_BASE}/invitations`} current={route.name === 'invitations'}>
            Invitations
          </Link>
        ) : null}
        {isAdmin ? (
          <Link href={`${APP_BASE}/audit`} current={route.name === 'audit'}>
            Audit
          </Link>
        ) : null}
      </nav>
      <LiveStatus />
      <div class="who">
        {user ? (
          <>
            <OrganizationSwitcher session={session} />
            <Link href={`${APP_BASE}/account`} testId="account-link">
              {user.name}
            </Link>
            <button
              type="button"
              class="link"
              onClick={() => {
                void leave();
              }}
              data-testid="sign-out"
            >
              Sign out
            </button>
          </>
        ) : session.loaded ? (
          <>
            <Link href={signInHref()}>Sign in</Link>
            <Link href={`${APP_BASE}/sign-up`}>Sign up</Link>
          </>
        ) : null}
      </div>
      <ErrorMessage error={error} />
    </header>
  );
}

export function App() {
  const location = useStore(locationStore);
  const session = useStore(sessionStore);
  const [error, setError] = useState<unknown>(null);
  const route = parseRoute(location.pathname, location.search);

  useEffect(() => {
    refreshSession().catch((caught: unknown) => {
      setError(caught);
      signedOut();
    });
  }, []);

  // The change feed follows the session: other rights, other changes. It resumes where it was.
  const userId = session.view?.user?.id ?? null;
  const organizationId = session.view?.activeOrganization?.id ?? null;
  useEffect(() => {
    if (!session.loaded) return;
    startFeed();
    return stopFeed;
  }, [session.loaded, userId, organizationId]);

  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <Header session={session} route={route} />
      <main id="main" tabIndex={-1}>
        <ErrorMessage error={error} />
        {session.loaded ? <Page route={route} session={session} /> : <p aria-busy="true">Loading…</p>}
      </main>
    </>
  );
}
