const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

/**
 * A file name safe to store and to send back in Content-Disposition: no directories, no control or
 * shell-special characters, no leading dots, at most 200 characters with the extension kept.
 */
export function sanitizeFilename(name: string, fallback = 'document'): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  let clean = base
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f<>:"|?*]/g, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[.\s]+/, '')
    .trim();
  if (RESERVED.test(clean)) clean = `_${clean}`;
  if (clean.length > 200) {
    const dot = clean.lastIndexOf('.');
    const ext = dot > 0 && clean.length - dot <= 10 ? clean.slice(dot) : '';
    clean = clean.slice(0, 200 - ext.length) + ext;
  }
  return clean || fallback;
}
