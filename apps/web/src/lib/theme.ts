import { createTheme, darken, Drawer, Menu, Modal, type CSSVariablesResolver } from '@mantine/core';

/**
 * Secondary text (range text, labels of read-only facts, section headings) and the text of disabled controls.
 * Mantine's default, gray.6, is 3.3:1 on white; this one is 5.8:1 on white and 4.9:1 on gray.2 (the
 * background of disabled buttons), so it meets WCAG AA for small text while still reading as secondary.
 */
const MUTED_TEXT = '#5f666d';

/**
 * Colours chosen for WCAG 2.1 AA contrast (4.5:1 for normal text), checked by axe in the e2e suite.
 * Shade 8 is the "filled" shade (buttons, links, the active tab): white on blue.8 is 5.0:1 and blue.8 on the
 * striped table rows (gray.0) 4.8:1, where Mantine's default shade 6 gives 3.6:1 and 3.4:1.
 */
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'sm',
  fontSizes: { md: '0.9rem' },
  components: {
    Table: { defaultProps: { fz: 'sm' } },
    // The icon-only close button of dialogs has no name of its own.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    // The placeholder is a focusable role="presentation" element inside role="menu", which may only hold
    // menu items (axe: aria-required-children). Without it the dropdown itself takes focus on opening, and
    // the arrow keys still move into the items.
    Menu: Menu.extend({ defaultProps: { withInitialFocusPlaceholder: false } }),
  },
});

/** The theme's CSS variables that `createTheme` cannot reach: muted and disabled text, light-variant text. */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': MUTED_TEXT,
    '--mantine-color-disabled-color': MUTED_TEXT,
    // Field error messages: red.6 is 3.3:1 on white, red.9 5.5:1.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    // Light and subtle variants (the Delete button, alert titles) write shade 9 on shade 1, and on shade 2 when
    // hovered: 3.8:1 for red. A darker shade 9 keeps every state above 4.5:1.
    ...Object.fromEntries(Object.keys(t.colors).map((c) => [`--mantine-color-${c}-light-color`, darken(t.colors[c]![9], 0.2)])),
  },
  dark: {},
});
