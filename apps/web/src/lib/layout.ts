import { useMediaQuery } from '@mantine/hooks';

/** Height of the top bar; sticky table headers sit just below it. */
export const HEADER_HEIGHT = 52;

/**
 * A phone's width (Mantine's sm breakpoint and below), where a screen gives its width to the data: a record's
 * many actions fold behind one button (decision 054) and an overview's row buttons scroll with their row
 * (decision 067).
 */
export const usePhone = (): boolean => useMediaQuery('(max-width: 48em)');
