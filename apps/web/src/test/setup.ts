import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { notifications } from '@mantine/notifications';
import { installDownloadCapture, savedFiles } from './downloads';

// jsdom lacks what Mantine measures with.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
if (!('ResizeObserver' in window)) {
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}
window.scrollTo = () => {};
Element.prototype.scrollIntoView = () => {};
installDownloadCapture();

/**
 * findBy / waitFor wait up to 10 s instead of 1 s: under CI load (two cores running the API and web suites side
 * by side) a first render of the app can take longer than a second. A test still fails when the thing never comes.
 */
configure({ asyncUtilTimeout: 10_000 });

/**
 * A test fails on any console.error (React warnings, act() warnings, unexpected errors). Failed API calls are
 * logged with console.warn by design (spec §8); they are kept quiet here but can be asserted.
 */
let consoleErrors: unknown[][] = [];

beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  sessionStorage.clear();
  window.location.hash = '';
  savedFiles.length = 0;
  // The toasts live in one store for the whole file: each test starts without the last one's.
  notifications.clean();
});

afterEach(() => {
  cleanup();
  const errors = consoleErrors;
  consoleErrors = [];
  if (errors.length > 0) {
    throw new Error(`Unexpected console.error:\n${errors.map((args) => args.map(String).join(' ')).join('\n')}`);
  }
});
