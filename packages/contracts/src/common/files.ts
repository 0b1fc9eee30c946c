/**
 * A kind of file an upload accepts. The kind is recognised from the file's content (never from its name or the
 * type the browser claims); the name's extension must be one of `extensions`.
 */
export interface FileKind {
  /** The media type stored and answered on download. */
  mime: string;
  /** Lower-case, without the dot; the first is added to a name that has no extension. */
  extensions: readonly string[];
  /** How the kind is named in messages. */
  label: string;
}

/** Kinds the API recognises from content (file-type signatures, or checked UTF-8 text for `text/plain`). */
export const FILE_KINDS = {
  pdf: { mime: 'application/pdf', extensions: ['pdf'], label: 'PDF' },
  jpeg: { mime: 'image/jpeg', extensions: ['jpg', 'jpeg'], label: 'JPEG' },
  png: { mime: 'image/png', extensions: ['png'], label: 'PNG' },
  docx: { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', extensions: ['docx'], label: 'DOCX' },
  xlsx: { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extensions: ['xlsx'], label: 'XLSX' },
  odt: { mime: 'application/vnd.oasis.opendocument.text', extensions: ['odt'], label: 'ODT' },
  ods: { mime: 'application/vnd.oasis.opendocument.spreadsheet', extensions: ['ods'], label: 'ODS' },
  text: { mime: 'text/plain', extensions: ['txt'], label: 'TXT (UTF-8 text)' },
  /** Only for the bank-info import (a zip of .xlsx files, each read with the zip rules of issue 16); never a document. */
  zip: { mime: 'application/zip', extensions: ['zip'], label: 'ZIP' },
} as const satisfies Record<string, FileKind>;
