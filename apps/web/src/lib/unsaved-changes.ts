import { useEffect } from 'react';

/** The screens and dialogs holding unsaved changes just now (decision 061). */
const dirtyScreens = new Set<symbol>();

/** Whether a screen holds changes that are not saved: Logout asks first then, and an ended session asks for a login. */
export function hasUnsavedChanges(): boolean {
  return dirtyScreens.size > 0;
}

/** Counts a screen as holding changes until the returned function is called. */
function holdUnsavedChanges(): () => void {
  const screen = Symbol('dirty screen');
  dirtyScreens.add(screen);
  return () => {
    dirtyScreens.delete(screen);
  };
}

/** Counts the calling component as holding unsaved changes while `dirty`. */
export function useUnsavedChanges(dirty: boolean): void {
  useEffect(() => (dirty ? holdUnsavedChanges() : undefined), [dirty]);
}
