/** The screens holding unsaved changes just now (a detail screen in edit or new mode with changes). */
const dirtyScreens = new Set<symbol>();

/** Whether a screen holds changes that are not saved: Logout asks first then, and an ended session asks for a login. */
export function hasUnsavedChanges(): boolean {
  return dirtyScreens.size > 0;
}

/** Counts a screen as holding changes until the returned function is called. */
export function holdUnsavedChanges(): () => void {
  const screen = Symbol('dirty screen');
  dirtyScreens.add(screen);
  return () => {
    dirtyScreens.delete(screen);
  };
}
