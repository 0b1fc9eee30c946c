import { useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router';
import { AppShell } from '@mantine/core';
import { useAlerts } from '../lib/alerts';
import { focusScreenHeading, MAIN_ID, screenHeading } from '../lib/focus';
import { HEADER_HEIGHT } from '../lib/layout';
import { SessionEndedDialog } from './session-ended-dialog';
import { TopBar } from './top-bar';

const APP_NAME = 'Scholarship Office';

/**
 * The browser tab's title follows the screen's heading ("Student Łukasz Wiśniewski · Scholarship Office"): a
 * screen reader announces it, and tabs and history tell screens apart. It was "Scholarship Office" everywhere.
 */
function useTitleOfHeading() {
  useEffect(() => {
    const main = document.getElementById(MAIN_ID);
    if (!main) return;
    const update = () => {
      const text = screenHeading()?.textContent?.trim();
      const title = text ? `${text} · ${APP_NAME}` : APP_NAME;
      if (document.title !== title) document.title = title;
    };
    update();
    const observer = new MutationObserver(update);
    observer.observe(main, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, []);
}

/**
 * Another screen opened by a link or a menu: focus goes to its heading, so a keyboard or screen-reader user is at
 * the new screen's top (focus was left on the page, and the next Tab began at the top bar again). Not when the
 * screen put focus in itself (a new record's first field), nor on the first screen after a load.
 */
function useFocusOnScreenChange(pathname: string) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    let tries = 0;
    const timer = setInterval(() => {
      const active = document.activeElement;
      const focusedInScreen = active instanceof HTMLElement && active !== document.body && document.getElementById(MAIN_ID)?.contains(active);
      if (focusedInScreen || ++tries > 20 || focusScreenHeading()) clearInterval(timer);
    }, 50);
    return () => clearInterval(timer);
  }, [pathname]);
}

/**
 * The frame of every logged-in page: a skip link, the top bar and the screen (alerts are toasts). Another screen
 * opened takes the error alerts of the one before with it: they were about that screen (decision 052).
 */
export function AppLayout() {
  const { pathname } = useLocation();
  const { clearErrors } = useAlerts();
  useEffect(() => {
    if (pathname) clearErrors();
  }, [pathname, clearErrors]);
  useTitleOfHeading();
  useFocusOnScreenChange(pathname);
  return (
    <AppShell header={{ height: HEADER_HEIGHT }} padding="md">
      <a
        href={`#${MAIN_ID}`}
        className="skip-link"
        onClick={(e) => {
          // The app's routes are hash routes: the link must not change the hash, only move focus.
          e.preventDefault();
          if (focusScreenHeading()) return;
          const main = document.getElementById(MAIN_ID);
          if (!main) return;
          main.tabIndex = -1;
          main.focus();
        }}
      >
        Skip to main content
      </a>
      <AppShell.Header>
        <TopBar />
      </AppShell.Header>
      <AppShell.Main id={MAIN_ID}>
        <Outlet />
      </AppShell.Main>
      <SessionEndedDialog />
    </AppShell>
  );
}
