import { useEffect, useState } from 'react';

/** The element of the screen's content: the layout's main region. */
export const MAIN_ID = 'main-content';

/** The screen's heading (every screen has one h1). */
export const screenHeading = () => document.querySelector<HTMLElement>(`#${MAIN_ID} h1`);

/** The screen's heading focused, as a place to start from; false when there is none. */
export function focusScreenHeading(): boolean {
  const heading = screenHeading();
  if (!heading) return false;
  heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
  return true;
}

/**
 * A dialog drawn only while it is needed gives focus back, when it goes, to what had it when it came (the button
 * that opened it); Mantine's own return of focus runs only when `opened` turns false, which such a dialog never
 * does, and focus fell to the page: the next Tab began at the top bar again. When that button is gone or disabled
 * (the action is running), the screen's heading takes focus. Not when something else took it meanwhile.
 */
export function useReturnFocus(): void {
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null));
  useEffect(
    () => () => {
      setTimeout(() => {
        const active = document.activeElement;
        if (active && active !== document.body) return;
        if (opener?.isConnected && !opener.matches(':disabled')) opener.focus();
        else focusScreenHeading();
      }, 0);
    },
    [opener],
  );
}
