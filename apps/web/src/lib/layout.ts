/** Height of the top bar; sticky table headers sit just below it. */
export const HEADER_HEIGHT = 52;
