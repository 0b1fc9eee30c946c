import type { DownloadedFile } from './api-client';

/**
 * Hands a downloaded file to the browser to save, under the server's file name (or `fallbackName`): an object
 * URL on a temporary `<a download>`. The anchor is put into the document for the click (some browsers ignore
 * clicks on detached anchors), and the URL is revoked once the browser has taken the file. Answers what the
 * server said beside the file, for the caller to show.
 */
export function saveFile({ blob, filename, message }: DownloadedFile, fallbackName: string): string | undefined {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename ?? fallbackName;
  anchor.rel = 'noopener';
  anchor.style.display = 'none';
  document.body.append(anchor);
  try {
    anchor.click();
  } finally {
    anchor.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
  return message;
}
