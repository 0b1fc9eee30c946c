/**
 * jsdom has no object URLs and no downloads. These stand in for the browser's part of saving a file: object
 * URLs map to their blobs, and a click on an `<a download>` of one is recorded here instead of navigating.
 */
export interface SavedFile {
  filename: string;
  blob: Blob;
}

export const savedFiles: SavedFile[] = [];

const blobs = new Map<string, Blob>();
let counter = 0;

export function installDownloadCapture(): void {
  URL.createObjectURL = (object: Blob | MediaSource) => {
    const url = `blob:http://localhost/download-${++counter}`;
    blobs.set(url, object as Blob);
    return url;
  };
  URL.revokeObjectURL = (url: string) => {
    blobs.delete(url);
  };
  document.addEventListener(
    'click',
    (event) => {
      const anchor = event.target instanceof Element ? event.target.closest('a[download]') : null;
      if (!(anchor instanceof HTMLAnchorElement) || !anchor.href.startsWith('blob:')) return;
      event.preventDefault();
      const blob = blobs.get(anchor.href);
      if (blob) savedFiles.push({ filename: anchor.download, blob });
    },
    true,
  );
}

/** The text of a blob (jsdom's Blob has no `text()`). */
export function blobText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Cannot read the blob'));
    reader.readAsText(blob);
  });
}
