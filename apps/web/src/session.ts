import type { CurrentUser, SessionView } from '@portal/contracts';
import { setCsrfToken } from './api/client.js';
import { currentUser, getSession } from './api/endpoints.js';
import { createStore } from './lib/store.js';

/** Who is signed in, in which organization, with which role; `me` holds every membership. */
export interface SessionState {
  readonly loaded: boolean;
  readonly view: SessionView | null;
  readonly me: CurrentUser | null;
}

export const sessionStore = createStore<SessionState>({ loaded: false, view: null, me: null });

/** Takes a session view the API answered (sign-in, sign-up, set-active) and reads the memberships. */
export async function applySessionView(view: SessionView): Promise<void> {
  setCsrfToken(view.csrfToken);
  const me = view.user ? await currentUser() : null;
  sessionStore.set({ loaded: true, view, me });
}

export async function refreshSession(): Promise<void> {
  await applySessionView(await getSession());
}

export function signedOut(): void {
  setCsrfToken(null);
  sessionStore.set({ loaded: true, view: null, me: null });
}
